"""Skull: rules and cards of one game (RULES.md, section "Skull")."""
