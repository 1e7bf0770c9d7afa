from django.urls import path

from web import views

urlpatterns = [
    path("play/", views.play, name="play"),
]
