# Sourced by scripts/serve and scripts/test: make sure uv is available and the venv is synced.
# Needs nothing but Python 3.11 with pip. Afterwards "${UV[@]}" is the uv command to use.

# pip --user puts executables in ~/.local/bin, which is often not on PATH yet.
export PATH="$HOME/.local/bin:$PATH"

if command -v uv >/dev/null 2>&1; then
    UV=(uv)
else
    PY="$(command -v python3.11 || command -v python3 || command -v python)"
    echo "uv not found; installing it with $PY -m pip" >&2
    # --user is refused inside a virtualenv and on some managed Pythons: fall back to a plain install.
    "$PY" -m pip install --user --quiet uv || "$PY" -m pip install --quiet uv
    hash -r
    if command -v uv >/dev/null 2>&1; then
        UV=(uv)
    else
        # The Python's scripts directory is not on PATH: use the module entry point.
        UV=("$PY" -m uv)
    fi
fi

"${UV[@]}" sync --frozen
