"""Every reference to the user model has a deletion decision, registered by the app that holds
it (accounts/hooks.py): a model that adds a foreign key, one-to-one or many-to-many table to
the user fails here until its app's registration says what deleting an account does to its
rows."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models

from accounts import hooks
from accounts.erasure import Policy, keep


def references_to_the_user() -> set[str]:
    user = get_user_model()
    found = set()
    for model in apps.get_models(include_auto_created=True):
        if model._meta.proxy:
            continue  # the same table as its concrete model
        for field in model._meta.get_fields(include_hidden=True):
            if not field.concrete or not isinstance(field, models.ForeignKey):
                continue  # (a OneToOneField is a ForeignKey; m2m rows are auto-created models)
            if field.related_model is user:
                found.add(f"{model._meta.app_label}.{model.__name__}.{field.name}")
    return found


def test_the_finder_sees_the_known_references():
    found = references_to_the_user()
    assert {"games.Seat.user", "accounts.Session.user", "accounts.User_groups.user"} <= found


def test_every_reference_to_the_user_has_a_decision():
    missing = sorted(references_to_the_user() - set(hooks.erasure()))
    assert missing == [], f"add a line to its app's registration (accounts.hooks) for: {missing}"


def test_the_drift_check_sees_a_registration_go_missing():
    """Take one app's registration away and its tables show up as uncovered."""
    part = next(p for p in hooks.parts() if p.app == "notifications")
    try:
        hooks._parts.pop("notifications")
        missing = references_to_the_user() - set(hooks.erasure())
        assert "notifications.Device.user" in missing
    finally:
        hooks._parts["notifications"] = part


def test_every_decision_is_about_a_real_reference():
    assert sorted(set(hooks.erasure()) - references_to_the_user()) == []


def test_an_app_decides_only_for_its_own_tables():
    with pytest.raises(ValueError):
        hooks.register("matchmaking", erasure={"games.Seat.user": keep("not its own")})


def test_the_apps_that_hold_players_register_and_depart_highest_first():
    assert [p.app for p in hooks.parts()] == [
        "admin",
        "accounts",
        "games",
        "notifications",
        "matchmaking",
        "tournaments",
    ]
    departing = [d.__module__ for d in hooks.departures()]
    assert departing == ["tournaments.personal", "matchmaking.personal", "games.personal"]


def test_set_null_only_where_the_field_is_nullable():
    for label, decision in hooks.erasure().items():
        if decision.policy is Policy.SET_NULL:
            app_model, _, name = label.rpartition(".")
            assert apps.get_model(app_model)._meta.get_field(name).null, label
