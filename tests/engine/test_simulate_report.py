"""What `simulate --json` reports (games/engine/simulate.py)."""

import pytest

from games.engine import registry


def test_the_simulator_reports_levels_with_intervals_and_fibber_plays():
    from games.engine.simulate import simulate

    report = simulate(
        registry.get("fibber"), matches=6, seats=3, seed=4, levels=["strong", "basic", "basic"]
    )
    assert set(report["levels"]) == {"strong", "basic"}
    basic = report["levels"]["basic"]
    assert basic["seats"] == 2
    assert basic["ci95"][0] <= basic["win_rate"] <= basic["ci95"][1]
    assert sum(report["win_rate"]) == pytest.approx(1.0)
    assert report["plays"]["median"] > 0 and report["plays"]["max"] >= report["plays"]["p99"]
    for rate, (lo, hi) in zip(report["win_rate"], report["win_rate_ci95"], strict=True):
        assert lo <= rate <= hi
    dice = simulate(registry.get("fibbers_dice"), matches=4, seats=2, seed=4)
    assert "plays" not in dice  # only games that count plays report them
