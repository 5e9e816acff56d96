"""``skatdd serve``: an analysis board in the browser and a JSON API, on a bounded pool of solver processes.

* :mod:`skatdd.serve.app`: the Starlette application (routes, limits, errors, security headers);
* :mod:`skatdd.serve.protocol`: the HTTP connection (uvicorn's h11, with a deadline per request and half-closes);
* :mod:`skatdd.serve.pool`: the worker processes, time limits, cancelling, refusing work when full;
* :mod:`skatdd.serve.worker`: what runs in a worker process;
* :mod:`skatdd.serve.api`: ``/api/solve`` and ``/api/advise``, the CLI's numbers for a JSON body;
* :mod:`skatdd.serve.schema`: the advise request's fields, read with the CLI's messages;
* :mod:`skatdd.serve.board`: the board's questions (load a game, the nodes of a line);
* ``templates/board.html.j2``, ``static/board.js``, ``static/board.css``: the page.

Starlette and uvicorn are an optional extra (``pip install 'skatdd[serve]'``);
only :mod:`skatdd.serve.app` and :mod:`skatdd.serve.protocol` import them, so the worker and its tasks load
without them.  May import every layer except :mod:`skatdd.cli`.
"""
