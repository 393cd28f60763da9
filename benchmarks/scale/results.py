"""The results file: one JSON record per engine and configuration, appended as runs finish.

A record names its run (experiment, mode, platform, panel, x, the engine asked for)
and holds either the `ferry bench exchange --json` row (status "ok"), or why there is
none ("failed": the run's last lines; "skipped": why it was not run). Rerunning with
--resume keeps the runs already in the file and reruns the failed ones, whose new
records replace the old.
"""

import json
from pathlib import Path


def run_key(record):
    return (record["experiment"], record["mode"], record["platform"], record["panel"],
            record["x"], record["requested"])


class ResultStore:
    def __init__(self, path, resume):
        self.path = Path(path)
        self.records = []
        if resume and self.path.exists():
            with self.path.open() as f:
                self.records = [json.loads(line) for line in f if line.strip()]
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._write([])
        # Failed runs are rerun, and so are skipped ones: the limit that skipped them
        # may have been raised.
        self._done = {run_key(r) for r in self.records if r["status"] == "ok"}

    def has(self, key):
        return key in self._done

    def add(self, record):
        key = run_key(record)
        if key not in self._done and any(run_key(r) == key for r in self.records):
            # A rerun of a failed run replaces it.
            self.records = [r for r in self.records if run_key(r) != key]
            self._write(self.records)
        self.records.append(record)
        self._done.add(key)
        with self.path.open("a") as f:
            f.write(json.dumps(record, sort_keys=True) + "\n")

    def forget(self, key):
        """Drops the records of `key`, so that a rerun does not add to them."""
        if any(run_key(r) == key for r in self.records):
            self.records = [r for r in self.records if run_key(r) != key]
            self._write(self.records)
        self._done.discard(key)

    def _write(self, records):
        self.path.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in records))

    def select(self, experiment, mode):
        return [r for r in self.records if r["experiment"] == experiment and r["mode"] == mode]


def make_record(experiment, mode, platform, point, requested, **fields):
    return {
        "experiment": experiment.key, "mode": mode, "platform": platform, "panel": point.panel,
        "x": point.x, "src": point.src, "dst": point.dst, "requested": requested, **fields,
    }
