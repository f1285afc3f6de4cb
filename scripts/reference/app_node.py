"""Starts agentwire's AgentApp (scripts/reference/app_server.mjs, Node) for the Python checks."""

import os
import subprocess


class NodeApp:
    """`with NodeApp(pkg, script) as base:` — the app's base URL while the block runs."""

    def __init__(self, pkg, script="tools"):
        self.args = ["node", os.path.join(os.path.dirname(__file__), "app_server.mjs"), os.path.abspath(pkg), script]

    def __enter__(self):
        self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line.startswith("listening "), f"the app did not start: {line!r}"
        return f"http://127.0.0.1:{int(line.split()[1])}"

    def __exit__(self, *exc):
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
