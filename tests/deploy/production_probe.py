"""Run by ``test_static_and_docs.py`` in a fresh process under the production settings.

Collects the static files into ``argv[1]`` (as the Dockerfile does), then fetches the pages
and the assets they reference through the whole middleware stack (WhiteNoise included) and
prints what came back as JSON."""

import json
import re
import sys

import django
from django.conf import settings

settings.STATIC_ROOT = sys.argv[1]
django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

call_command("collectstatic", interactive=False, verbosity=0)
client = Client()


def fetch(path: str, accept: str = "*/*") -> dict:
    response = client.get(path, secure=True, HTTP_ACCEPT=accept)
    body = response.getvalue()  # WhiteNoise answers with a streaming response
    return {
        "status": response.status_code,
        "type": response.get("Content-Type", ""),
        "size": len(body),
        "text": body.decode("utf-8", "replace") if path.endswith("/") else "",
    }


result: dict = {"debug": settings.DEBUG, "pages": {}, "assets": {}}
result["assets"]["/static/admin/css/base.css"] = fetch("/static/admin/css/base.css")
for page in ("/api/docs/", "/api/redoc/", "/admin/login/"):
    answer = fetch(page, accept="text/html")
    answer["refs"] = re.findall(r'(?:src|href)="([^"]+)"', answer["text"])
    result["pages"][page] = answer
    for ref in answer["refs"]:
        if ref.startswith("/") and not ref.startswith("//"):
            result["assets"][ref] = fetch(ref)
result["renderers"] = settings.REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"]
print(json.dumps(result))
