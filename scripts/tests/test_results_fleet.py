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
        runs = rows(db, "SELECT host, json FROM runs ORDER BY host")
        self.assertEqual([h for h, _ in runs], ["localbox", "sshbox"])
        for host, text in runs:
            self.assertEqual(json.loads(text)["context"]["labels"]["host"], host)
        self.assertEqual(rows(db, "SELECT r.host, COUNT(*) FROM results s JOIN runs r ON r.id = s.run_id "
                                  "GROUP BY r.host ORDER BY r.host"), [("localbox", 1), ("sshbox", 5)])
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
        (text,) = [t for t, in rows(db, "SELECT json FROM runs WHERE host = 'board1'")]
        self.assertTrue(json.loads(text)["context"]["executable"].startswith(checkout), text[:300])


if __name__ == "__main__":
    unittest.main()
