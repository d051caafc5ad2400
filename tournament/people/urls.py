"""People across events: the public pages (/people/…), the API (/api/v1/people/…) and the
desk's links, merges and splits (/desk/people/…)."""

from django.urls import URLPattern, URLResolver

# Under /people/:
public: list[URLPattern | URLResolver] = []
# Under /api/v1/people/:
api: list[URLPattern | URLResolver] = []
# Under /desk/people/:
desk: list[URLPattern | URLResolver] = []
