from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournament"

    def ready(self) -> None:
        # The subscribers of the domain signals (`core/signals.py`), in the order they answer:
        # the phones' reports settled before the later rounds are paired again.
        from tournament.exchange import receivers as snapshots
        from tournament.pairing import receivers as pairing
        from tournament.phone import receivers as phone
        from tournament.scoresheets import receivers as scoresheets
        from tournament.standings import stamps

        stamps.connect()
        scoresheets.connect()
        phone.connect()
        pairing.connect()
        snapshots.connect()
