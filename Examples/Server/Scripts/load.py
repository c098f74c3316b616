#!/usr/bin/env python3
"""`make load`: the server under wrk, once with each wiring, side by side.

For each wiring: start the release server on a free localhost port, wait until it
answers, store one item, drive a route that resolves its services per request with
wrk for a fixed time, stop the server, and print requests per second. With
--rounds N, each wiring is run N times in alternating order (a server each time).
Only 127.0.0.1 is ever contacted; every run is bounded by wrk's duration.
Standard library only.
"""

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HOST = "127.0.0.1"


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def request(url, body=None, timeout=2.0):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=timeout) as response:
        return response.status, response.read()


def wait_until_answering(server, base, log_path, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"load: the server exited with {server.returncode} before answering:\n"
                     + open(log_path).read())
        try:
            status, _ = request(base + "/hello/load", timeout=1.0)
            if status == 200:
                return
        except (urllib.error.URLError, ConnectionError, socket.timeout):
            pass
        time.sleep(0.1)
    sys.exit(f"load: no answer from {base} after {timeout:.0f}s:\n" + open(log_path).read())


def stop(server):
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def parse_wrk(output):
    def find(pattern, default=None):
        match = re.search(pattern, output, re.MULTILINE)
        return match.group(1) if match else default

    rps = find(r"^Requests/sec:\s+([\d.]+)")
    if rps is None:
        sys.exit("load: could not read wrk's output:\n" + output)
    return {
        "rps": float(rps),
        "requests": int(find(r"^\s*(\d+) requests in", "0")),
        "latency": find(r"^\s*Latency\s+(\S+)", "?"),
        "p99": find(r"^\s*99%\s+(\S+)", "?"),
        "non2xx": int(find(r"Non-2xx or 3xx responses:\s+(\d+)", "0")),
        "socket_errors": find(r"Socket errors:\s+(.+)$", ""),
    }


def run(binary, wiring, args, logdir):
    port = free_port()
    base = f"http://{HOST}:{port}"
    log_path = os.path.join(logdir, f"{wiring}.log")
    env = dict(os.environ, CONTAINER=wiring, HOST=HOST, PORT=str(port), LOG_LEVEL="warning")
    with open(log_path, "w") as log:
        server = subprocess.Popen([binary], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_answering(server, base, log_path)
        status, body = request(base + "/items", {"name": "lamp"})
        item = json.loads(body)
        if status != 201:
            sys.exit(f"load: POST /items answered {status}")
        url = f"{base}/items/{item['id']}"
        print(f"==> {wiring}: wrk -t{args.threads} -c{args.connections} -d{args.duration} GET {url}",
              flush=True)
        wrk = subprocess.run(
            ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}", "--latency", url],
            capture_output=True, text=True, timeout=parse_seconds(args.duration) + 60)
        if wrk.returncode != 0:
            sys.exit(f"load: wrk failed ({wrk.returncode}):\n{wrk.stdout}{wrk.stderr}")
        result = parse_wrk(wrk.stdout)
        # Still serving the same item afterwards.
        status, body = request(url)
        if status != 200 or json.loads(body) != item:
            sys.exit(f"load: after the run GET {url} answered {status} {body!r}")
        return result
    finally:
        stop(server)


def parse_seconds(duration):
    match = re.fullmatch(r"(\d+)([smh]?)", duration)
    if not match:
        sys.exit(f"load: duration {duration!r}: expected e.g. 10s, 2m")
    return int(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[match.group(2)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the release ItemsServer")
    parser.add_argument("--duration", default="10s")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--wirings", default="resolver,swinject,hand")
    parser.add_argument("--rounds", type=int, default=1,
                        help="runs per wiring, in alternating order; the table shows the middle one by requests/s")
    args = parser.parse_args()
    parse_seconds(args.duration)
    wirings = args.wirings.split(",")
    if args.rounds < 1:
        sys.exit("load: --rounds must be at least 1")

    # Round 1 in the given order, round 2 reversed, and so on: a machine that gets
    # busier or quieter during the run favours neither wiring.
    runs = {wiring: [] for wiring in wirings}
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="items-load-") as logdir:
        for round_index in range(args.rounds):
            for wiring in (wirings if round_index % 2 == 0 else wirings[::-1]):
                runs[wiring].append(run(args.binary, wiring, args, logdir))

    print()
    print("GET /items/:id, each request resolving its controller, service, repository and unit of work")
    print(f"wrk -t{args.threads} -c{args.connections} -d{args.duration}, {args.rounds} run(s) per wiring, "
          f"on {os.cpu_count()} cores (the server shares them); load average {load:.2f} before the first run")
    print()
    spread = args.rounds > 1
    print(f"{'wiring':<10} {'requests/s':>12} " + (f"{'runs':>17} " if spread else "")
          + f"{'avg latency':>12} {'p99':>10}  errors")
    medians = {}
    for wiring, results in runs.items():
        ordered = sorted(results, key=lambda r: r["rps"])
        median = ordered[len(ordered) // 2]
        medians[wiring] = median["rps"]
        errors = []
        non2xx = sum(r["non2xx"] for r in results)
        if non2xx:
            errors.append(f"{non2xx} non-2xx")
        errors += ["socket " + r["socket_errors"] for r in results if r["socket_errors"]]
        runs_text = f"{ordered[0]['rps']:,.0f}-{ordered[-1]['rps']:,.0f}" if spread else ""
        print(f"{wiring:<10} {median['rps']:>12,.0f} " + (f"{runs_text:>17} " if spread else "")
              + f"{median['latency']:>12} {median['p99']:>10}  {', '.join(errors) or 'none'}")
    print()
    for other, what in (("hand", "the services built by hand, no container: the limit; the goal is >= 0.98x"),
                        ("swinject", "Swinject 2.10.0")):
        if medians.get(other) and "resolver" in medians:
            print(f"resolver / {other}: {medians['resolver'] / medians[other]:.2f}x the requests per second ({what})")
    if any(r["non2xx"] or r["rps"] <= 0 for results in runs.values() for r in results):
        sys.exit("load: some requests failed")


if __name__ == "__main__":
    main()
