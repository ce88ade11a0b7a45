"""The web app's static files (index.html, ES modules, stylesheet), served by
server.web_app at `/` of the HTTP port; docs/web.md describes the app."""
