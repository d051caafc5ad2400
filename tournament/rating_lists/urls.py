"""An association's own rating lists: the public pages (/ratings/…) and the desk's
(/desk/ratings/…)."""

from django.urls import URLPattern, URLResolver

# Under /ratings/:
public: list[URLPattern | URLResolver] = []
# Under /desk/ratings/:
desk: list[URLPattern | URLResolver] = []
