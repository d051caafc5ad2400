"""The event's addresses at the desk (under /desk/): new tournaments, their people, lock,
divisions, language, copy, the dashboard and the change log."""

from django.urls import path

from tournament.event import views

# "new/" and "import/" before "<slug:slug>/": a tournament may not be called either.
desk = [
    path("", views.index, name="desk"),
    path("new/", views.new_tournament, name="desk-new-tournament"),
    path("import/", views.import_tsh, name="desk-import-tsh"),
    path("<slug:slug>/people/", views.people, name="desk-people"),
    path("<slug:slug>/people/<int:user_id>/remove", views.remove_person, name="desk-remove-person"),
    path("<slug:slug>/lock", views.lock, name="desk-lock"),
    path("<slug:slug>/divisions/", views.divisions, name="desk-divisions"),
    path("<slug:slug>/language", views.language, name="desk-language"),
    path("<slug:slug>/dates", views.dates, name="desk-dates"),
    path("<slug:slug>/copy", views.copy_tournament, name="desk-copy"),
    path("<slug:slug>/delete-demo", views.delete_demo, name="desk-delete-demo"),
    path("<slug:slug>/", views.dashboard, name="desk-dashboard"),
    path("<slug:slug>/backup", views.download_backup, name="desk-backup"),
    path("<slug:slug>/snapshots/<str:name>", views.download_snapshot, name="desk-snapshot"),
    path("<slug:slug>/changes/", views.changes, name="desk-changes"),
    path("<slug:slug>/check/", views.check, name="desk-check"),
]
