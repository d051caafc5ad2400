from django.contrib import admin
from django.urls import include, path

from config.views import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("tournament.urls_phone")),
    path("", include("tournament.urls_api")),
    path("", include("tournament.urls")),
]
