"""The one page of the web client. Everything else happens in the browser, through the API."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def play(request: HttpRequest) -> HttpResponse:
    """The table: an HTML shell that loads ``web/app.js``; routes live after the ``#``."""
    return render(request, "web/play.html")
