"""The Django admin, for the rare edit the director's desk does not cover."""

from django.contrib import admin

from tournament.models import Change, Division, Game, Player, Scoresheet, Tournament


class DivisionInline(admin.TabularInline):
    model = Division
    extra = 0
    fields = ["name", "position", "ruleset", "planned_rounds", "bye_spread", "forfeit_spread"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "start_date", "venue", "public"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
    inlines = [DivisionInline]


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "ruleset", "planned_rounds", "rating_system"]
    list_filter = ["tournament"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "rating", "division", "withdrawn_from_round"]
    list_filter = ["division__tournament", "division"]
    search_fields = ["name", "membership_id"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "player1", "score1", "player2", "score2", "kind", "first"]
    list_filter = ["division__tournament", "division", "round", "kind"]
    raw_id_fields = ["player1", "player2"]


@admin.register(Scoresheet)
class ScoresheetAdmin(admin.ModelAdmin):
    list_display = ["game", "verified", "flagged", "resolved", "uploaded", "uploaded_by"]
    list_filter = ["verified", "flagged", "resolved"]
    raw_id_fields = ["game"]


@admin.register(Change)
class ChangeAdmin(admin.ModelAdmin):
    list_display = ["at", "tournament", "action", "user", "player", "game", "reason"]
    list_filter = ["tournament", "action"]
    raw_id_fields = ["game", "scoresheet", "player"]
