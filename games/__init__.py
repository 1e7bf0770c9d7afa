"""Games: pure rules engines (``games.engine``), models, services, selectors, bots and tasks."""
