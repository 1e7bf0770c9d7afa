"""Games: pure rules engines (``games.engine``), models, services (writers), reads (readers),
bots and tasks."""
