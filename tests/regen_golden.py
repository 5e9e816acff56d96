"""Rewrite the golden CLI outputs in tests/data/golden/ from the current code (see golden_cases.py).

    python tests/regen_golden.py            # every case
    python tests/regen_golden.py NAME...    # only these cases (see golden_cases.CASES)

Run it only when an output is meant to change (a new case, a deliberate
change of a report or a JSON field), then review ``git diff tests/data/golden``
line by line before committing: the diff is the change users will see.  A
refactoring must not need it at all.

A case whose exit status is not the one its :class:`~golden_cases.Case`
declares is not written (the script stops with status 1), so a crash cannot
be blessed as the expected output.  Without names, files of cases that no
longer exist are deleted.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden_cases import CASES, GOLDEN, Case, run_case  # after the path above: tests/ is not a package


def regenerate(case: Case) -> None:
    """Run *case* and write its NAME.out, NAME.err (when it wrote to stderr) and NAME.files/ (when it wrote files).

    Files of an earlier run that the case no longer writes are removed.
    """
    output = run_case(case)
    if output.status != case.status:
        sys.exit(f"{case.name}: exit status {output.status}, expected {case.status}; stderr:\n"
                 f"{output.stderr.decode(errors='replace')}")
    case.out_path.write_bytes(output.stdout)
    if output.stderr:
        case.err_path.write_bytes(output.stderr)
    else:
        case.err_path.unlink(missing_ok=True)
    if case.files_path.is_dir():
        shutil.rmtree(case.files_path)
    for name, data in output.files.items():
        path = case.files_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def main(names: list[str]) -> None:
    """Regenerate the cases *names* (every case when empty), deleting stale files in a full run."""
    unknown = [name for name in names if name not in CASES]
    if unknown:
        sys.exit(f"unknown case(s): {', '.join(unknown)}")
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name in names or list(CASES):
        regenerate(CASES[name])
        print(name)
    if not names:
        expected = {path for c in CASES.values() for path in (c.out_path, c.err_path, c.files_path)}
        for path in sorted(GOLDEN.iterdir()):
            if path not in expected:
                shutil.rmtree(path) if path.is_dir() else path.unlink()
                print(f"removed {path.name}")


if __name__ == "__main__":
    main(sys.argv[1:])
