#!/usr/bin/env python3
"""A private single-node Slurm in a temporary directory, for tests and trials.

munged with its own key and socket, slurmctld and slurmd in the foreground
with a generated slurm.conf (SLURM_CONF points to it), no systemd, nothing
written outside the directory.  Needs root (slurmd starts jobs as their
user) and the Debian packages slurmctld, slurmd, slurm-client and munge.

    with PrivateSlurm(tmpdir, cpus=2) as ps:
        subprocess.run(["sbatch", ...], env=ps.env)

As a program (for measurements by hand):

    private_slurm.py start DIR     # prints `export SLURM_CONF=...`; daemons keep running
    private_slurm.py stop DIR      # stops them by the pids recorded in DIR/pids
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

DAEMONS = ["munged", "slurmctld", "slurmd"]
TOOLS = ["sbatch", "squeue", "scontrol", "scancel", "sinfo"]


def missing():
    """Why a private Slurm cannot start here, or None."""
    if os.geteuid() != 0:
        return "not root (slurmd must run as root to start jobs)"
    paths = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    lost = [p for p in DAEMONS + TOOLS if not shutil.which(p, path=paths)]
    if lost:
        return "missing %s (Debian packages slurmctld slurmd slurm-client munge)" % ", ".join(lost)
    return None


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class PrivateSlurm:
    def __init__(self, top, cpus=2, name="sgtest"):
        self.top = os.path.abspath(top)
        self.cpus = cpus
        self.name = name
        self.procs = []
        self.host = socket.gethostname().split(".")[0]
        self.conf = os.path.join(self.top, "slurm.conf")
        env = dict(os.environ)
        env["SLURM_CONF"] = self.conf
        env["PATH"] = env.get("PATH", "") + ":/usr/sbin:/sbin"
        for k in list(env):   # an outer allocation must not leak into ours
            if k.startswith("SLURM_") and k != "SLURM_CONF":
                del env[k]
        self.env = env

    def _write_conf(self):
        d = self.top
        for sub in ["state", "spool", "munge", "log"]:
            os.makedirs(os.path.join(d, sub), exist_ok=True)
        os.chmod(os.path.join(d, "munge"), 0o700)
        key = os.path.join(d, "munge", "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        self.munge_sock = os.path.join(d, "munge", "munge.socket")
        conf = """\
ClusterName={name}
SlurmctldHost={host}
SlurmctldPort={p1}
SlurmdPort={p2}
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={sock}
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SchedulerParameters=sched_interval=2
MinJobAge=300
NodeName={host} CPUs={cpus} State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""".format(name=self.name, host=self.host, p1=free_port(), p2=free_port(), sock=self.munge_sock,
           d=d, cpus=self.cpus)
        with open(self.conf, "w") as f:
            f.write(conf)

    def _spawn(self, argv, log):
        out = open(os.path.join(self.top, "log", log), "ab")
        p = subprocess.Popen(argv, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        out.close()
        self.procs.append(p)
        with open(os.path.join(self.top, "pids"), "a") as f:
            f.write("%d %s\n" % (p.pid, argv[0]))
        return p

    def start(self, timeout=60):
        os.makedirs(self.top, exist_ok=True)
        self._write_conf()
        d = self.top
        self._spawn(["munged", "-F", "-f", "--key-file=" + os.path.join(d, "munge", "munge.key"),
                     "--socket=" + self.munge_sock, "--pid-file=" + os.path.join(d, "munge", "munged.pid"),
                     "--log-file=" + os.path.join(d, "log", "munged.log"),
                     "--seed-file=" + os.path.join(d, "munge", "munged.seed")], "munged.out")
        t0 = time.time()
        while not os.path.exists(self.munge_sock):
            if time.time() - t0 > 20 or self.procs[0].poll() is not None:
                raise RuntimeError("munged did not start: " + self.log_tail("munged.out") +
                                   self.log_tail("munged.log"))
            time.sleep(0.1)
        # -i: ignore (absent) saved state; foreground, so the pid is ours to stop
        self._spawn(["slurmctld", "-D", "-i", "-f", self.conf], "slurmctld.out")
        self._spawn(["slurmd", "-D", "-f", self.conf], "slurmd.out")
        while True:
            r = subprocess.run(["sinfo", "-h", "-o", "%T"], env=self.env, capture_output=True, text=True)
            st = r.stdout.strip()
            if r.returncode == 0 and st and st.rstrip("*") in ("idle", "mixed", "allocated"):
                return
            dead = [p.args[0] for p in self.procs if p.poll() is not None]
            if dead or time.time() - t0 > timeout:
                raise RuntimeError("private Slurm did not come up (%s): sinfo said %r %r\n%s%s" % (
                    "died: " + ", ".join(dead) if dead else "timeout", st, r.stderr.strip(),
                    self.log_tail("slurmctld.log"), self.log_tail("slurmd.log")))
            time.sleep(0.5)

    def log_tail(self, name, n=2000):
        try:
            with open(os.path.join(self.top, "log", name), errors="replace") as f:
                return "\n--- %s ---\n%s" % (name, f.read()[-n:])
        except OSError:
            return ""

    def stop(self):
        stop_pids(self.top, [p.pid for p in self.procs])
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.procs = []

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()


def stop_pids(top, pids):
    """Stops the daemons (slurmd first: it ends its job steps) and every job
    process they left (they are in the daemons' sessions' descendants)."""
    order = sorted(pids, key=lambda p: 0 if _comm(p) == "slurmd" else 1)
    for p in order:
        for k in _descendants(p):
            _kill(k, signal.SIGKILL)
        _kill(p, signal.SIGTERM)
        t0 = time.time()
        while _alive(p) and time.time() - t0 < 10:
            time.sleep(0.1)
        _kill(p, signal.SIGKILL)


def _comm(pid):
    try:
        with open("/proc/%d/comm" % pid) as f:
            return f.read().strip()
    except OSError:
        return ""


def _alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _kill(pid, sig):
    try:
        os.kill(pid, sig)
    except OSError:
        pass


def _descendants(pid):
    kids = {}
    for e in os.listdir("/proc"):
        if e.isdigit():
            try:
                with open("/proc/%s/stat" % e) as f:
                    ppid = int(f.read().split(")")[-1].split()[1])
                kids.setdefault(ppid, []).append(int(e))
            except (OSError, ValueError, IndexError):
                pass
    out, todo = [], [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.append(k)
            todo.append(k)
    return out


def main(argv):
    if len(argv) != 3 or argv[1] not in ("start", "stop"):
        print(__doc__)
        return 2
    top = os.path.abspath(argv[2])
    if argv[1] == "start":
        why = missing()
        if why:
            print("private_slurm: cannot start: " + why, file=sys.stderr)
            return 2
        ps = PrivateSlurm(top)
        try:
            ps.start()
        except RuntimeError as e:
            ps.stop()
            print("private_slurm: %s" % e, file=sys.stderr)
            return 1
        print("export SLURM_CONF=%s PATH=$PATH:/usr/sbin" % ps.conf)
        return 0
    try:
        with open(os.path.join(top, "pids")) as f:
            pids = [int(l.split()[0]) for l in f if l.strip()]
    except OSError as e:
        print("private_slurm: %s" % e, file=sys.stderr)
        return 1
    stop_pids(top, pids)
    os.remove(os.path.join(top, "pids"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
