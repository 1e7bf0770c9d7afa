FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PROJECT_ENVIRONMENT=/opt/venv \
    PATH="/opt/venv/bin:$PATH" \
    DJANGO_SETTINGS_MODULE=fibserver.settings.production

RUN pip install --no-cache-dir uv

WORKDIR /app

# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev

COPY . .

# Static files (admin, API docs) into /app/staticfiles, hashed and compressed; WhiteNoise serves
# them. The production settings insist on a real SECRET_KEY even here: a throwaway one, never
# stored in the image.
RUN SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
    python manage.py collectstatic --noinput

RUN useradd --system --no-create-home fibserver
USER fibserver

EXPOSE 8000 8001
CMD ["gunicorn", "fibserver.wsgi:application", "-w", "4", "-b", "0.0.0.0:8000"]
