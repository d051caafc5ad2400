"""Django project configuration for Spread."""
