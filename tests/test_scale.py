"""rami.scale: the same results, in the same order, whatever runs the tasks (this process, local
processes, a real local Ray cluster shared by the session); failed tasks sent again and said;
clear errors for a missing package or an unreachable cluster."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rami.cli.main import app
from rami.errors import TaskFailedError
from rami.game.simulate import Simulation, play_task
from rami.scale.executor import RETRIES, LocalExecutor
from rami.scale.ray_cluster import RayExecutor

ROOT = Path(__file__).resolve().parent.parent
RAMI = [sys.executable, "-m", "rami.cli.main"]


def rami(*args: str):
    return CliRunner().invoke(app, list(args))


def _plays(games: int, seed: int) -> list[dict]:
    simulation = Simulation("rami-chinois", ("beginner", "beginner"), games, seed).checked()
    return [{"simulation": simulation.to_json(), "index": index} for index in range(games)]


def test_local_executor_keeps_input_order_with_two_processes():
    jobs = _plays(6, 4)
    with LocalExecutor(1) as here, LocalExecutor(2) as pool:
        inline = list(here.ordered(play_task, jobs))
        spread = list(pool.ordered(play_task, jobs, window=3))
    assert [outcome["index"] for outcome in spread] == list(range(6))
    assert [o["record"] for o in spread] == [o["record"] for o in inline]


def test_ray_tasks_give_the_local_results_in_order(ray_cluster):
    jobs = _plays(5, 8)
    with RayExecutor.connect("auto") as cluster:
        assert cluster.workers == 2 and not cluster.owns_cluster
        remote = list(cluster.ordered(play_task, jobs, window=3))
    local = list(LocalExecutor(1).ordered(play_task, jobs))
    assert [o["record"] for o in remote] == [o["record"] for o in local]


def _descendants(root: int) -> set[int]:
    """``root`` and every process started under it (Ray's GCS, raylet and workers)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    family = {root}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in family and pid not in family:
                family.add(pid)
                grew = True
    return family


def _listening_addresses(pids: set[int]) -> list[str]:
    """The local addresses (hex, as /proc/net/tcp writes them) of the TCP sockets these
    processes listen on."""
    inodes: set[str] = set()
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.append(fields[1].rsplit(":", 1)[0])
    return found


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's /proc")
def test_the_local_cluster_listens_on_the_loopback_only(ray_cluster):
    """docs/scale.md: the cluster rami starts (and the test session's) binds its servers to
    127.0.0.1, not to every interface: RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 makes the node's
    address the loopback one, and Ray binds its gRPC servers to the node's address."""
    loopback = {"0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000"}
    addresses = _listening_addresses(_descendants(os.getpid()))
    assert len(addresses) >= 3  # the GCS, the raylet, this driver's core worker at least
    assert set(addresses) <= loopback, addresses
    assert ray_cluster.startswith("127.0.0.1:")


def test_a_crashed_task_is_sent_again_and_said(ray_cluster, tmp_path):
    marks = tmp_path

    def crash_once(number: int) -> int:
        mark = marks / f"{number}"
        if number % 2 and not mark.exists():
            mark.touch()
            os._exit(3)  # the worker process dies: Ray reports a lost worker
        return number * number

    told = []
    with RayExecutor.connect("auto") as cluster:
        results = list(
            cluster.ordered(
                crash_once, range(5), window=2, on_retry=lambda n, a, why: told.append((n, a, why))
            )
        )
    assert results == [0, 1, 4, 9, 16]
    assert sorted((n, a) for n, a, _ in told) == [(1, 1), (3, 1)]
    assert all("Worker" in why or "died" in why.lower() for _, _, why in told), told


def test_a_task_failing_every_time_stops_the_run(ray_cluster):
    def always_fails(number: int) -> int:
        if number == 2:
            raise ValueError("no good")
        return number

    told = []
    with RayExecutor.connect("auto") as cluster, pytest.raises(TaskFailedError) as failure:
        list(
            cluster.ordered(always_fails, range(4), on_retry=lambda n, a, why: told.append((n, a)))
        )
    assert "task 2 failed 3 times" in str(failure.value) and "no good" in str(failure.value)
    assert told == [(2, attempt) for attempt in range(1, RETRIES + 1)]


def test_simulate_on_ray_writes_the_local_records(ray_cluster, tmp_path):
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    common = ["simulate", "--games", "8", "--seed", "21", "--json"]
    here = rami(*common, "--workers", "2", "--out", str(local))
    there = rami(*common, "--ray", "auto", "--out", str(remote))
    assert here.exit_code == 0 and there.exit_code == 0, there.output
    assert remote.read_bytes() == local.read_bytes() and len(local.read_text().splitlines()) == 8
    summary = json.loads(there.stdout)
    assert summary["executor"] == "ray" and summary["workers"] == 2 and summary["retries"] == []


def test_generate_on_ray_writes_the_local_pack(ray_cluster, tmp_path):
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    common = ["puzzle", "generate", "--count", "2", "--seed", "3", "--tier", "easy"]
    assert rami(*common, "--out", str(local)).exit_code == 0
    result = rami(*common, "--ray", "auto", "--out", str(remote))
    assert result.exit_code == 0, result.output
    assert remote.read_text() == local.read_text() and len(local.read_text().splitlines()) == 2


def _without_ms(text: str) -> list[dict]:
    lines = [json.loads(line) for line in text.splitlines()]
    for line in lines:
        line.pop("ms", None)
    return lines


def test_solve_batch_on_a_running_cluster_by_address(ray_cluster, tmp_path):
    batch = tmp_path / "batch.jsonl"
    batch.write_text((ROOT / "examples" / "batch.jsonl").read_text() + "not a position\n")
    here = subprocess.run([*RAMI, "solve", "--batch", str(batch)], capture_output=True, text=True)
    there = subprocess.run(
        [*RAMI, "solve", "--batch", str(batch), "--ray", ray_cluster],
        capture_output=True,
        text=True,
    )
    assert here.returncode == there.returncode == 2  # the last line is bad input
    assert _without_ms(there.stdout) == _without_ms(here.stdout)
    assert [line["line"] for line in _without_ms(there.stdout)] == list(
        range(1, len(batch.read_text().splitlines()) + 1)
    )
    assert "error" in _without_ms(there.stdout)[-1]


def test_an_unreachable_cluster_is_a_clear_error(tmp_path):
    result = rami(
        "simulate",
        "--games",
        "1",
        "--ray",
        "127.0.0.1:1",
        "--json",
        "--out",
        str(tmp_path / "x.jsonl"),
    )
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["type"] == "ClusterUnavailableError" and "127.0.0.1:1" in error["message"]
    result = rami(
        "puzzle", "generate", "--ray", "not-an-address", "--out", str(tmp_path / "y.jsonl")
    )
    assert result.exit_code == 2 and "HOST:PORT" in result.output
    result = rami("solve", "--ray", "auto", "examples/demo.txt")
    assert result.exit_code == 2 and "--batch" in result.output


HIDE_RAY = """
import sys
class NoRay:
    def find_spec(self, name, path=None, target=None):
        if name == "ray" or name.startswith("ray."):
            raise ModuleNotFoundError("No module named 'ray'", name=name)
sys.meta_path.insert(0, NoRay())
sys.argv = ["rami", *sys.argv[1:]]
from rami.cli.main import run
run()
"""


def test_ray_not_installed_is_a_clear_error(tmp_path):
    out = tmp_path / "x.jsonl"
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            HIDE_RAY,
            "simulate",
            "--games",
            "1",
            "--ray",
            "auto",
            "--json",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2, result.stderr
    error = json.loads(result.stdout)["error"]
    assert error["type"] == "ClusterUnavailableError"
    assert "pip install 'rami[ray]'" in error["message"]
    assert not out.exists()
    # Without --ray nothing asks for ray: the local run works where ray is not installed.
    result = subprocess.run(
        [sys.executable, "-c", HIDE_RAY, "simulate", "--games", "1", "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


#: A process that spawns a pool of two workers busy for two minutes, prints its pid and waits.
_POOL_OWNER = """
import time
from rami.scale.executor import spawned_pool
pool = spawned_pool(2)
busy = [pool.submit(time.sleep, 120) for _ in range(2)]
print("started", flush=True)
time.sleep(120)
"""


def _children(parent: int) -> set[int]:
    """The live (not zombie) processes whose parent is ``parent``, read from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal")
def test_pool_workers_die_with_the_process_that_spawned_them():
    """A command killed with kill -9 (no cleanup at all) leaves no worker computing on."""
    import time

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    owner = subprocess.Popen(
        [sys.executable, "-c", _POOL_OWNER], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert owner.stdout is not None and owner.stdout.readline().strip() == "started"
        workers: set[int] = set()
        for _ in range(600):  # the two workers start (spawned: a fresh interpreter each)
            workers = _children(owner.pid) - {owner.pid}
            if len(workers) >= 2:
                break
            time.sleep(0.1)
        assert len(workers) >= 2, workers
    finally:
        owner.kill()
        owner.wait()
        if owner.stdout is not None:
            owner.stdout.close()
    for _ in range(300):
        if not any(_alive(pid) for pid in workers):
            break
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers), workers
