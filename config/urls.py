from django.contrib import admin
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from config.views import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    # The header's language switcher posts to set_language, which sets the language cookie. It is
    # on every public page, which is cached whole for every visitor, so it carries no CSRF token;
    # a forged post could change no more than the reader's own language.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("", include("tournament.urls")),
]

# A refusal says why: the page, or for the desk's scripts the sentence as JSON.
handler403 = "tournament.core.access.forbidden"
