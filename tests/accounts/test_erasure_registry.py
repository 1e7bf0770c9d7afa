"""Every reference to the user model has a deletion decision (accounts/erasure.py): a model
that adds a foreign key, one-to-one or many-to-many table to the user fails here until it says
what deleting an account does to its rows."""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models

from accounts.erasure import ERASURE, Policy


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
    missing = sorted(references_to_the_user() - set(ERASURE))
    assert missing == [], f"add a line to accounts/erasure.py ERASURE for: {missing}"


def test_every_decision_is_about_a_real_reference():
    assert sorted(set(ERASURE) - references_to_the_user()) == []


def test_set_null_only_where_the_field_is_nullable():
    for label, decision in ERASURE.items():
        if decision.policy is Policy.SET_NULL:
            app_model, _, name = label.rpartition(".")
            assert apps.get_model(app_model)._meta.get_field(name).null, label
