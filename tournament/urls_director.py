"""The director's desk, under /desk/: a tournament's own directors only."""

from django.urls import include, path

from tournament.event import views as events
from tournament.exchange import ratinglist
from tournament.pairing import views as pairing
from tournament.players import views as players_views
from tournament.playoffs import views as playoffs
from tournament.reports import prize_views
from tournament.reports import views as reports
from tournament.results import views as results_views
from tournament.scoresheets import views as scoresheet_views

division_urls = [
    path("round/<int:round_number>/", results_views.entry, name="desk-entry"),
    path("round/<int:round_number>/check", results_views.entry_check, name="desk-entry-check"),
    path("round/<int:round_number>/enter", results_views.enter, name="desk-enter"),
    path("undo", results_views.undo, name="desk-undo"),
    path("upload/", scoresheet_views.upload, name="desk-upload"),
    path("pairing/", pairing.pairing, name="desk-pairing"),
    path("pairing/pair", pairing.pair, name="desk-pair"),
    path("settings/", pairing.settings, name="desk-division-settings"),
    path("round/<int:round_number>/pairings/", pairing.round_pairings, name="desk-round-pairings"),
    path("round/<int:round_number>/manual", pairing.pair_manual, name="desk-pair-manual"),
    path("round/<int:round_number>/swap", pairing.swap, name="desk-swap"),
    path("round/<int:round_number>/publish", pairing.publish, name="desk-publish"),
    path("round/<int:round_number>/unpair", pairing.unpair, name="desk-unpair"),
    path("round/<int:round_number>/forfeit", pairing.forfeit, name="desk-forfeit"),
    path("players/", players_views.players, name="desk-players"),
    path("players/withdraw", players_views.withdraw, name="desk-withdraw"),
    path("players/<int:number>/reinstate", players_views.reinstate, name="desk-reinstate"),
    path("players/add", players_views.late_entry, name="desk-late-entry"),
    path("players/roster", players_views.roster, name="desk-roster"),
    path("players/latin", players_views.latin_names, name="desk-latin-names"),
    path("players/ratings/", ratinglist.rating_list, name="desk-rating-list"),
    path("prizes/", prize_views.desk_prizes, name="desk-prizes"),
    path("prizes/slides/", prize_views.desk_prize_slides, name="desk-prize-slides"),
    path("playoff/", playoffs.desk_playoff, name="desk-playoff"),
    path("players/paste", players_views.paste_players, name="desk-paste-players"),
    path("players/<int:number>/edit/", players_views.edit_player, name="desk-edit-player"),
    path("check-in/", players_views.check_in, name="desk-check-in"),
    path("players/absent", players_views.absent, name="desk-absent"),
    path("players/table", players_views.fixed_table, name="desk-fixed-table"),
    path("players/move", players_views.move_player, name="desk-move-player"),
]

game_urls = [
    path("", results_views.game, name="desk-game"),
    path("scoresheet/", scoresheet_views.scoresheet_new, name="desk-scoresheet-new"),
    path("scoresheet/check", scoresheet_views.scoresheet_check, name="desk-scoresheet-check"),
    path("upload", scoresheet_views.scoresheet_upload, name="desk-scoresheet-upload"),
]

scoresheet_urls = [
    path("", scoresheet_views.scoresheet, name="desk-scoresheet"),
    path("edit/", scoresheet_views.scoresheet_edit, name="desk-scoresheet-edit"),
    path("resolve", scoresheet_views.scoresheet_resolve, name="desk-scoresheet-resolve"),
    path("release", scoresheet_views.scoresheet_release, name="desk-scoresheet-release"),
]

urlpatterns = [
    path("", events.index, name="desk"),
    path("new/", events.new_tournament, name="desk-new-tournament"),
    path("<slug:slug>/people/", events.people, name="desk-people"),
    path(
        "<slug:slug>/people/<int:user_id>/remove", events.remove_person, name="desk-remove-person"
    ),
    path("<slug:slug>/lock", events.lock, name="desk-lock"),
    path("<slug:slug>/divisions/", events.divisions, name="desk-divisions"),
    path("<slug:slug>/language", events.language, name="desk-language"),
    path("<slug:slug>/copy", events.copy_tournament, name="desk-copy"),
    path("<slug:slug>/delete-demo", events.delete_demo, name="desk-delete-demo"),
    path("<slug:slug>/", events.dashboard, name="desk-dashboard"),
    path("<slug:slug>/changes/", events.changes, name="desk-changes"),
    path("<slug:slug>/division/<int:division_id>/", include(division_urls)),
    path("<slug:slug>/games/<int:game_id>/", include(game_urls)),
    path("<slug:slug>/scoresheets/<int:sheet_id>/", include(scoresheet_urls)),
]

# Reports: every report of a division as PDF or xlsx, the .tou file, a game record.
urlpatterns += [
    path(
        "<slug:slug>/division/<int:division_id>/report/<slug:kind>.<slug:fmt>",
        reports.desk_report,
        name="desk-report",
    ),
    path("<slug:slug>/results.tou", reports.desk_tou, name="desk-tou"),
    path("<slug:slug>/config.tsh", reports.desk_tsh, name="desk-tsh"),
    path("<slug:slug>/summary/", reports.desk_summary, name="desk-summary"),
    path(
        "<slug:slug>/scoresheets/<int:sheet_id>/record.pdf",
        reports.desk_game_record,
        name="desk-game-record",
    ),
    path(
        "<slug:slug>/scoresheets/<int:sheet_id>/record.gcg",
        reports.desk_gcg,
        name="desk-gcg",
    ),
]
