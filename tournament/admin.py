"""Admin registrations for the tournament models, as they arrive."""
