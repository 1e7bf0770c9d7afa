"""Persistence models (Match, Seat, hidden state, event log, idempotency records).

Empty for now: the models arrive with the persistence issue.
"""
