"""The simulate and replay management commands, end to end."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_simulate_json_prints_exactly_one_object_with_the_summary_fields():
    out = run("simulate", "fabfib", "--matches", "20", "--seats", "4", "--seed", "3", "--json")
    summary = json.loads(out)
    assert summary["game"] == "fabfib" and summary["matches"] == 20
    assert summary["finished"] == 20 and summary["errors"] == 0
    assert summary["mean_actions"] > 0 and summary["seconds"] >= 0
    assert summary["end_reasons"] == {"last_alive": 1.0}
    assert 0 < summary["actions"]["p50"] <= summary["actions"]["p99"] <= summary["actions"]["max"]


def test_simulate_reports_the_share_of_each_end_reason():
    out = run(
        "simulate",
        "fibber",
        "--matches",
        "4",
        "--seats",
        "4",
        "--options",
        '{"max_plays": 50}',
        "--bots",
        "basic,basic,basic,basic",
        "--json",
    )
    shares = json.loads(out)["end_reasons"]
    assert set(shares) <= {"silver_nose", "max_plays"} and sum(shares.values()) == 1.0
    text = run("simulate", "skull", "--matches", "3", "--seats", "3")
    assert "ended by:" in text and "p50" in text


def test_simulate_is_reproducible_for_a_seed():
    args = ("simulate", "fabfib", "--matches", "5", "--seats", "3", "--seed", "9", "--json")
    first, second = json.loads(run(*args)), json.loads(run(*args))
    assert first["mean_actions"] == second["mean_actions"]
    assert first["win_rate"] == second["win_rate"]


def test_exported_replays_re_run_exactly_and_a_tampered_one_is_caught(tmp_path):
    run(
        "simulate",
        "fabfib",
        "--matches",
        "3",
        "--seats",
        "5",
        "--seed",
        "2",
        "--export",
        str(tmp_path),
    )
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    record = json.loads(files[0].read_text())
    assert {"seed", "seats", "options", "steps", "result", "setup"} <= set(record)
    assert "3 of 3 replays re-ran exactly" in run("replay", str(tmp_path))
    record["steps"][3]["action"] = (
        {"type": "call"} if record["steps"][3]["action"]["type"] != "call" else {"type": "accept"}
    )
    files[1].write_text(json.dumps(record))
    with pytest.raises(CommandError, match="differ"):
        run("replay", str(tmp_path))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("chess", "--seats", "3"), "Unknown game"),
        (("fabfib", "--seats", "2"), "3 to 10"),
        (("fabfib", "--seats", "3", "--options", "[1]"), "JSON object"),
        (("fabfib", "--seats", "3", "--options", "{"), "not valid JSON"),
        (("fabfib", "--seats", "3", "--bots", "genius,random,random"), "unknown bot level"),
        (("fabfib", "--seats", "3", "--matches", "0"), "at least 1"),
    ],
)
def test_simulate_refuses_bad_input_clearly(args, message):
    with pytest.raises(CommandError, match=message):
        run("simulate", *args)
