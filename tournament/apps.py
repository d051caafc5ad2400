from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournament"

    def ready(self) -> None:
        from tournament.event import snapshots
        from tournament.standings import stamps

        stamps.connect()
        snapshots.connect()
