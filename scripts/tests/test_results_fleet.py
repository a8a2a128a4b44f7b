"""scripts/fleet/regbench.yml run by Debian's ansible-core over SSH to this machine (an sshd started here on a spare
port with a generated key) and through a local connection: one run per inventory host in the store, tagged with
its inventory name; a checkout is built on its host before its regbench runs."""
import getpass
import json
import os
import socket
import subprocess
import time
import unittest
import zlib

import fixture
from test_results_store import rows
from test_results_postgresql import spare_port

ROOT = os.path.dirname(fixture.SCRIPTS)
PLAYBOOK = os.path.join(fixture.SCRIPTS, "fleet", "regbench.yml")
REGBENCH = os.environ.get("REGBENCH") or os.path.join(ROOT, "build", "bench", "regbench")
# a few seconds of regbench per host: the test is about the playbook, not the figures
ARGS = "--quick --benchmark_filter=^barrier/ --benchmark_repetitions=2"


class Sshd:
    """An sshd of its own on 127.0.0.1: a generated host key, one authorized key, nothing from /etc/ssh."""

    def __init__(self, folder):
        self.folder, self.port = folder, spare_port()
        self.key = os.path.join(folder, "client")
        for key in (self.key, os.path.join(folder, "host")):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key], check=True)
        os.rename(self.key + ".pub", os.path.join(folder, "authorized_keys"))
        config = os.path.join(folder, "sshd_config")
        with open(config, "w", encoding="utf-8") as f:
            f.write(f"Port {self.port}\nListenAddress 127.0.0.1\nHostKey {folder}/host\n"
                    f"AuthorizedKeysFile {folder}/authorized_keys\nPidFile {folder}/sshd.pid\n"
                    "PasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"
                    "UsePAM no\nStrictModes no\nSubsystem sftp internal-sftp\n")
        if os.geteuid() == 0:
            os.makedirs("/run/sshd", mode=0o755, exist_ok=True)     # sshd's privilege separation folder
        self.log = open(os.path.join(folder, "sshd.log"), "w", encoding="utf-8")
        self.proc = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", config], stdout=self.log,
                                     stderr=subprocess.STDOUT)
        for _ in range(200):
            if self.proc.poll() is not None:
                break
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        with open(os.path.join(folder, "sshd.log"), encoding="utf-8") as f:
            raise AssertionError(f"sshd did not start: {f.read()}")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
        self.log.close()


def playbook(folder, inventory, *extra):
    # ansible's files in the test's folder; no ssh master left behind (it would keep an sshd session alive)
    env = dict(os.environ, ANSIBLE_HOME=os.path.join(folder, "ansible"),
               ANSIBLE_LOCAL_TEMP=os.path.join(folder, "ansible", "local"),
               ANSIBLE_REMOTE_TEMP=os.path.join(folder, "ansible", "remote"), ANSIBLE_SSH_ARGS="-o ControlMaster=no",
               ANSIBLE_PIPELINING="True", ANSIBLE_HOST_KEY_CHECKING="False", ANSIBLE_RETRY_FILES_ENABLED="False",
               ANSIBLE_NOCOLOR="1")
    path = os.path.join(folder, "inventory")
    with open(path, "w", encoding="utf-8") as f:
        f.write(inventory)
    return subprocess.run(["ansible-playbook", "-i", path, PLAYBOOK, *extra], capture_output=True, text=True, env=env,
                          timeout=600)


class Fleet(unittest.TestCase):
    def test_one_run_per_inventory_host_over_ssh_and_local(self):
        folder = fixture.tmpdir()
        sshd = Sshd(folder)
        self.addCleanup(sshd.stop)
        inventory = (f"sshbox ansible_host=127.0.0.1 ansible_port={sshd.port} ansible_user={getpass.getuser()} "
                     f"ansible_ssh_private_key_file={sshd.key} ansible_ssh_common_args='-o StrictHostKeyChecking=no "
                     "-o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes'\n"
                     # a host's own variables win over the group's
                     "localbox ansible_connection=local regbench_args='--quick --benchmark_filter=^barrier/mfence$'\n"
                     f"[all:vars]\nansible_python_interpreter=/usr/bin/python3\nregbench_args='{ARGS}'\n")
        db, fetched = os.path.join(folder, "fleet.sqlite"), os.path.join(folder, "fetched")
        p = playbook(folder, inventory, "-e", f"regbench_bin={REGBENCH}", "-e", f"regbench_db={db}",
                     "-e", f"regbench_fetch_dir={fetched}")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(p.stdout, r"sshbox\s+: ok=\d+ .*failed=0")
        self.assertRegex(p.stdout, r"localbox\s+: ok=\d+ .*failed=0")
        self.assertIn("2 added, 0 already there; 2 runs in the store", p.stdout)
        runs = rows(db, "SELECT host, json_zlib FROM runs ORDER BY host")
        self.assertEqual([h for h, _ in runs], ["localbox", "sshbox"])
        for host, z in runs:
            self.assertEqual(json.loads(zlib.decompress(z))["context"]["labels"]["host"], host)
        # every barrier regbench has (measured here, or skipped as another architecture's) is one result
        barriers = subprocess.run([REGBENCH, "--benchmark_list_tests=true", "--benchmark_filter=^barrier/"],
                                  capture_output=True, text=True, check=True).stdout.split()
        self.assertEqual(rows(db, "SELECT r.host, COUNT(*) FROM results s JOIN runs r ON r.key = s.run_id "
                                  "GROUP BY r.host ORDER BY r.host"), [("localbox", 1), ("sshbox", len(barriers))])
        self.assertEqual(sorted(f.split("-")[0] for f in os.listdir(fetched)), ["localbox", "sshbox"])

    def test_a_checkout_is_built_on_its_host_first(self):
        folder = fixture.tmpdir()
        # a checkout whose scripts/build leaves a mark, and whose build/ holds the regbench built here
        checkout = os.path.join(folder, "checkout")
        os.makedirs(os.path.join(checkout, "scripts"))
        os.makedirs(os.path.join(checkout, "build", "bench"))
        build = os.path.join(checkout, "scripts", "build")
        with open(build, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\ntouch built\n")
        os.chmod(build, 0o755)
        os.symlink(REGBENCH, os.path.join(checkout, "build", "bench", "regbench"))
        db = os.path.join(folder, "checkout.sqlite")
        p = playbook(folder, "board1 ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n",
                     "-e", f"regbench_checkout={checkout}", "-e", f"regbench_db={db}", "-e", f"regbench_args='{ARGS}'",
                     "-e", f"regbench_fetch_dir={os.path.join(folder, 'fetched')}")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertTrue(os.path.exists(os.path.join(checkout, "built")))
        (text,) = [zlib.decompress(z).decode() for z, in rows(db, "SELECT json_zlib FROM runs WHERE host = 'board1'")]
        self.assertTrue(json.loads(text)["context"]["executable"].startswith(checkout), text[:300])

    def test_list_arguments_unsafe_names_shared_machines_relative_paths_and_lost_runs(self):
        folder = fixture.tmpdir()
        # a regbench that logs when it starts and ends, so that two runs on one machine can be seen not to overlap
        log = os.path.join(folder, "log")
        wrapper = os.path.join(folder, "regbench")
        with open(wrapper, "w", encoding="utf-8") as f:
            f.write(f"#!/bin/sh\necho start >> {log}\n{REGBENCH} \"$@\"\nstatus=$?\necho end >> {log}\nexit $status\n")
        os.chmod(wrapper, 0o755)
        inventory = ("all:\n  vars:\n    ansible_connection: local\n    ansible_python_interpreter: /usr/bin/python3\n"
                     f"    regbench_bin: {wrapper}\n"
                     "  hosts:\n"
                     "    ../x:\n      regbench_args: [--quick, '--benchmark_filter=^barrier/mfence$', "
                     "--benchmark_repetitions=2]\n"
                     f"    twin:\n      regbench_args: '{ARGS}'\n"
                     "    broken:\n      regbench_bin: /nonexistent/regbench\n")
        with open(os.path.join(folder, "inventory.yml"), "w", encoding="utf-8") as f:
            f.write(inventory)
        env = dict(os.environ, ANSIBLE_HOME=os.path.join(folder, "ansible"), ANSIBLE_NOCOLOR="1",
                   ANSIBLE_LOCAL_TEMP=os.path.join(folder, "ansible", "local"), PWD=folder)
        p = subprocess.run(["ansible-playbook", "-i", "inventory.yml", PLAYBOOK, "-e", "regbench_db=rel.sqlite",
                            "-e", "regbench_fetch_dir=fetched"], capture_output=True, text=True, env=env, cwd=folder,
                           timeout=600)
        self.assertNotEqual(p.returncode, 0, p.stdout)
        last = p.stdout[p.stdout.rindex("TASK ["):]
        self.assertIn("Every host's run landed in the store", last)
        self.assertIn("runs that did not land in the store: broken (", last)
        self.assertNotIn("../x (", last)
        # relative paths from where the playbook was started; the unsafe name made a file name inside the folder
        db = os.path.join(folder, "rel.sqlite")
        self.assertEqual(sorted(h for h, in rows(db, "SELECT host FROM runs")), ["../x", "twin"])
        names = os.listdir(os.path.join(folder, "fetched"))
        self.assertEqual(len(names), 2, names)
        self.assertTrue(any(n.startswith("_._x.") for n in names), names)
        self.assertFalse(os.path.exists(os.path.join(folder, "x")))
        # the list reached regbench as three arguments: one benchmark, two repetitions
        self.assertEqual(rows(db, "SELECT s.name, s.repetitions FROM results s JOIN runs r ON r.key = s.run_id "
                                  "WHERE r.host = '../x'"), [("barrier/mfence", 2)])
        with open(log, encoding="utf-8") as f:
            self.assertEqual(f.read().split(), ["start", "end", "start", "end"])     # one machine: one at a time


if __name__ == "__main__":
    unittest.main()
