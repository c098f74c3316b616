#!/usr/bin/env python3
"""`make load`: the release server under wrk, a server per wiring and run, the
wirings alternating round by round; prints the median requests per second and
Resolver's against the hand-wired limit and Swinject. Only 127.0.0.1 is used.

    python3 load.py BINARY [--duration 10s] [--threads 2] [--connections 64] [--rounds 1]
"""
import argparse, json, os, re, socket, subprocess, sys, tempfile, time, urllib.request

WIRINGS = ["resolver", "swinject", "hand"]


def call(url, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=2) as response:
        return response.status, response.read()


def run(binary, wiring, args):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, CONTAINER=wiring, HOST="127.0.0.1", PORT=str(port), LOG_LEVEL="warning")
    log = tempfile.TemporaryFile("w+")  # a file, not a pipe nobody drains while wrk runs
    server = subprocess.Popen([binary], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(600):
            if server.poll() is not None:
                log.seek(0)
                sys.exit(f"load: the {wiring} server exited with {server.returncode}: {log.read()}")
            try:
                call(base + "/hello/load")
                break
            except OSError:
                time.sleep(0.1)
        status, item = call(base + "/items", {"name": "lamp"})
        url = f"{base}/items/{json.loads(item)['id']}"
        print(f"==> {wiring}: wrk -t{args.threads} -c{args.connections} -d{args.duration} GET {url}", flush=True)
        out = subprocess.run(["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}", "--latency",
                              url], capture_output=True, text=True, check=True).stdout
        if status != 201 or json.loads(call(url)[1]) != json.loads(item):  # still serving the item it stored
            sys.exit(f"load: the {wiring} server lost its item")
        find = lambda pattern: (re.search(pattern, out, re.MULTILINE) or [None, "0"])[1]
        return {"rps": float(find(r"^Requests/sec:\s+([\d.]+)")), "latency": find(r"^\s*Latency\s+(\S+)"),
                "p99": find(r"^\s*99%\s+(\S+)"), "errors": int(find(r"Non-2xx or 3xx responses:\s+(\d+)")),
                "socket": find(r"Socket errors:\s+(.+)$")}
    finally:
        server.terminate()
        server.wait(timeout=15)
        log.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--duration", default="10s")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    runs = {wiring: [] for wiring in WIRINGS}
    for round_index in range(args.rounds):  # a machine getting busier or quieter favours no wiring
        for wiring in WIRINGS[::-1] if round_index % 2 else WIRINGS:
            runs[wiring].append(run(args.binary, wiring, args))
    print(f"\nGET /items/:id, each request resolving its controller, service, repository and unit of work\n"
          f"wrk -t{args.threads} -c{args.connections} -d{args.duration}, {args.rounds} run(s) per wiring, on "
          f"{os.cpu_count()} cores (the server shares them); load average {load:.2f} before the first run\n")
    print(f"{'wiring':<10} {'requests/s':>12} {'runs':>17} {'avg latency':>12} {'p99':>10}  errors")
    median = {}
    for wiring, results in runs.items():
        ordered = sorted(results, key=lambda r: r["rps"])
        middle = median[wiring] = ordered[len(ordered) // 2]
        errors = ", ".join([f"{sum(r['errors'] for r in results)} non-2xx"] * any(r["errors"] for r in results)
                           + ["socket " + r["socket"] for r in results if r["socket"] != "0"]) or "none"
        print(f"{wiring:<10} {middle['rps']:>12,.0f} {ordered[0]['rps']:>8,.0f}-{ordered[-1]['rps']:<8,.0f} "
              f"{middle['latency']:>12} {middle['p99']:>10}  {errors}")
    print(f"\nresolver / hand: {median['resolver']['rps'] / median['hand']['rps']:.2f}x the requests per second "
          "(the services built by hand, no container: the limit; the goal is >= 0.98x)")
    print(f"resolver / swinject: {median['resolver']['rps'] / median['swinject']['rps']:.2f}x (Swinject 2.10.0)")
    if any(r["errors"] or r["rps"] <= 0 for results in runs.values() for r in results):
        sys.exit("load: some requests failed")


if __name__ == "__main__":
    main()
