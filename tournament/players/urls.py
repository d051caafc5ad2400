"""The roster's addresses at the desk, under a division."""

from django.urls import path

from tournament.players import views

desk_division = [
    path("players/", views.players, name="desk-players"),
    path("players/withdraw", views.withdraw, name="desk-withdraw"),
    path("players/<int:number>/reinstate", views.reinstate, name="desk-reinstate"),
    path("players/add", views.late_entry, name="desk-late-entry"),
    path("players/roster", views.roster, name="desk-roster"),
    path("players/latin", views.latin_names, name="desk-latin-names"),
    path("players/paste", views.paste_players, name="desk-paste-players"),
    path("players/<int:number>/edit/", views.edit_player, name="desk-edit-player"),
    path("check-in/", views.check_in, name="desk-check-in"),
    path("players/absent", views.absent, name="desk-absent"),
    path("players/table", views.fixed_table, name="desk-fixed-table"),
    path("players/move", views.move_player, name="desk-move-player"),
]
