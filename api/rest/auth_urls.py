"""Routes for accounts, included under ``/api/``."""

from django.urls import path

from api.rest import auth, exports, sessions

urlpatterns = [
    path("auth/guest/", auth.GuestCreateView.as_view(), name="auth-guest"),
    path("auth/register/", auth.RegisterView.as_view(), name="auth-register"),
    path("auth/login/", auth.LoginView.as_view(), name="auth-login"),
    path("auth/upgrade/", auth.UpgradeView.as_view(), name="auth-upgrade"),
    path("auth/logout/", auth.LogoutView.as_view(), name="auth-logout"),
    path("me/", auth.MeView.as_view(), name="me"),
    path("me/password/", auth.PasswordChangeView.as_view(), name="me-password"),
    path("me/sessions/", sessions.SessionListView.as_view(), name="me-sessions"),
    path(
        "me/sessions/<str:session_id>/",
        sessions.SessionDetailView.as_view(),
        name="me-session",
    ),
    path("me/export/", exports.ExportView.as_view(), name="me-export"),
    path("me/export/<str:export_id>/", exports.ExportStatusView.as_view(), name="me-export-job"),
    path(
        "me/export/<str:export_id>/download/",
        exports.ExportDownloadView.as_view(),
        name="me-export-download",
    ),
]
