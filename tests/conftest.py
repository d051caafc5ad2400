"""Shared fixtures for the whole suite; pytest-django provides client, db and settings."""
