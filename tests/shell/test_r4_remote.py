"""Red-team round 4, build tools, databases, services and remote verbs, through sanetools.py
in a project with the hooks installed (normal mode after research, and safemode):

R5: a build tool whose reads load project configuration that is code (.cargo/config.toml,
.yarnrc.yml, the Gemfile, eslint/prettier config, hatch version sources, terraform
providers, the pulumi program) is a runner in every verb but version and help queries.
R10: SQL and Mongo statements that write, however spelled.
R13: verbs of system and service tools that change state are not reads.
R14: destroying remote verbs get the [destructive] ask in normal mode.
H2: package tools (rye, hatch) are package changes."""

import pytest

from shell.labs import answer, pre, two_mode_labs

SM, DX = "[safemode]", "ask [destructive]"


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    labs = two_mode_labs(tmp_path_factory, "r4remote", {"README.md": "readme\n"})
    return {"N": labs["normal"], "S": labs["safe"]}


def _answer(labs, mode, cmd):
    return answer(pre(labs[mode], cmd))


# R5: reads that run project configuration: denied in safemode, pass normal mode
RUNS_CONFIG = [
    "cargo metadata",
    "cargo tree",
    "cargo metadata --format-version 1 --no-deps",
    "cargo pkgid",
    "cargo locate-project",
    "cargo search serde",
    "cd /tmp/x && cargo tree -e features",
    "cargo +nightly tree",
    "command cargo tree",
    "env cargo tree",
    "cargo -q metadata",
    "terraform -chdir=infra validate",
    "pnpm exec eslint .",
    "terraform -chdir=/tmp/tf plan",
    "terraform plan",
    "terraform validate",
    "terraform show",
    "terraform graph",
    "terraform providers schema -json",
    "tofu plan",
    "pulumi preview",
    "eslint .",
    "eslint src --max-warnings 0",
    "npx eslint .",
    "prettier --check .",
    "prettier -c src",
    "dprint check",
    "bundle list",
    "bundle show rails",
    "bundle outdated",
    "yarn why x",
    "yarn --version",
    "yarn info react",
    "yarn list",
    "hatch version",
    "hatch status",
    "rye show",
    "pdm show",
    "poetry show",
    "poetry version",
    "poetry config --list",
    "poetry config virtualenvs.in-project",
    "composer show",
    "uv tree",
    "uv export",
]

# version and help queries read no project file: pass both modes
INFO = [
    "cargo --version",
    "cargo -V",
    "cargo help",
    "eslint --version",
    "prettier --version",
    "bundle --version",
    "hatch --version",
    "poetry --version",
    "uv --version",
    "terraform version",
    "terraform providers",
    "black --check .",
]


@pytest.mark.parametrize("cmd", RUNS_CONFIG)
def test_reads_that_run_project_config(labs, cmd):
    assert _answer(labs, "S", cmd).startswith(SM), cmd
    assert _answer(labs, "N", cmd) == "allow", cmd


@pytest.mark.parametrize("cmd", INFO)
def test_version_queries_pass(labs, cmd):
    for m in "NS":
        assert _answer(labs, m, cmd) == "allow", (cmd, m)


# R13: state changes through verbs that were listed as reads: denied in safemode
CHANGES = [
    "telinit 1",
    "telinit S",
    "telinit q",
    "init 1",
    "kubectl auth reconcile -f x.yaml",
    "kubectl auth reconcile --remove-extra-permissions -f rbac/",
    "kubectl plugin install x",
    "journalctl --update-catalog",
    "journalctl --setup-keys",
    "journalctl --vacuum-size=1G",
    "journalctl --vacuum-time 2d",
    "journalctl --rotate",
    "journalctl --flush",
    "journalctl --sync",
    "journalctl --relinquish-var",
    "journalctl -u x --rotate",
    "journalctl --frobnicate",
    "journalctl -Z",
    "terraform providers mirror /tmp/m",
    "terraform providers lock",
    "terraform providers lock -platform=linux_amd64",
    "tofu providers mirror /tmp/m",
]
JOURNAL_READS = [
    "journalctl -u foo",
    "journalctl -xeu nginx.service",
    "journalctl -b -1",
    "journalctl -n 50 --no-pager",
    "journalctl -fu nginx",
    'journalctl --since "1 hour ago" -p err',
    "journalctl -k -b",
    "journalctl _SYSTEMD_UNIT=sshd.service",
    "journalctl --disk-usage",
    "journalctl -o json-pretty -n20",
    "journalctl --list-boots",
    "kubectl auth can-i get pods",
    "kubectl get pods",
    "telinit --help",
]


@pytest.mark.parametrize("cmd", CHANGES)
def test_state_changes_are_not_reads(labs, cmd):
    assert _answer(labs, "S", cmd).startswith(SM), cmd


@pytest.mark.parametrize("cmd", JOURNAL_READS)
def test_listed_reads_pass(labs, cmd):
    for m in "NS":
        assert _answer(labs, m, cmd) == "allow", (cmd, m)


def test_single_user_runlevel_is_destructive(labs):
    for cmd in ("telinit 1", "telinit s", "init 0", "journalctl --vacuum-files=1"):
        assert _answer(labs, "N", cmd).startswith(DX), cmd


# R10: SQL and Mongo that write however quoted: destructive ask in normal mode (or, for a
# change, pass), denied in safemode
SQL_DESTROYS = [
    "psql -c 'WITH x AS (UPDATE t SET a=1 RETURNING 1) SELECT 1'",
    "psql -c 'with x as (update t set a = 1) select * from x'",
    "psql -c \"select E'x\\\\'' ; drop table t\"",
    "psql -c \"select e'\\\\'' ; truncate t\"",
    "psql -c 'select $$x;$$; drop table t'",
    "psql -c 'select $q$ $$ ; $q$ ; drop table t'",
    "psql -c 'select 1 /* /* */ drop table t; */'",
    "psql -c 'with x as (merge into t using s on t.id=s.id when matched then delete) select 1'",
    "psql -c 'WITH x AS (DELETE FROM t RETURNING 1) SELECT 1'",
    "psql -c \"select U&'d\\\\0061' ; drop table t\"",
    "mysql -e \"select 'x\\\\'' ; drop table t\"",
    'mysql -e \'select "a\\"" ; delete from t\'',
    "mongosh --eval 'db.c[\"remove\"]({})'",
    "mongosh --eval 'db.c.remove\t({})'",
    "mongosh --eval 'db.c.remove\n({})'",
    "mongosh --eval 'db.c?.drop?.()'",
    "mongosh --eval \"db['c']['drop']()\"",
]
SQL_CHANGES = [
    "psql -c 'with x as (insert into t values (1) returning 1) select * from x'",
    "psql -c 'WITH x AS (UPDATE t SET a=1 WHERE id=3 RETURNING 1) SELECT 1'",
    "psql -c 'select * from t for update'",
    "mongosh --eval \"db.c['dr'+'op']()\"",
    "mongosh --eval 'db[\"users\"].insertOne({a: 1})'",
]
SQL_READS = [
    "psql -c 'select 1'",
    "psql -c \"select * from t where a = 'it''s'\"",
    'psql -c "select \'a;b\', \\"c;d\\" from t"',
    "psql -c 'select * from t where id in (select id from u)'",
    "psql -c \"SELECT count(*) FROM users WHERE created_at > now() - interval '1 day'\"",
    "mysql -e 'show tables'",
    'sqlite3 db.sqlite "select * from t"',
    "mongosh --eval 'db.c.find({a: {$in: [1, 2]}})'",
    "mongosh --eval 'db.users.find().limit(5)'",
    "mongosh --eval 'db.users.countDocuments({})'",
]


@pytest.mark.parametrize("cmd", SQL_DESTROYS)
def test_sql_that_destroys(labs, cmd):
    assert _answer(labs, "N", cmd).startswith(DX), cmd
    assert _answer(labs, "S", cmd).startswith(SM), cmd


@pytest.mark.parametrize("cmd", SQL_CHANGES)
def test_sql_that_changes(labs, cmd):
    assert _answer(labs, "S", cmd).startswith(SM), cmd


@pytest.mark.parametrize("cmd", SQL_READS)
def test_sql_reads_pass(labs, cmd):
    for m in "NS":
        assert _answer(labs, m, cmd) == "allow", (cmd, m)


# R14: destroying remote verbs get the [destructive] ask in normal mode ([safemode] there)
REMOTE_DESTROYS = [
    "aws kms schedule-key-deletion --key-id x",
    "aws secretsmanager schedule-secret-deletion --secret-id s",
    "aws ec2 detach-volume --volume-id v",
    "aws backup start-backup-deletion x",
    "gcloud kms keys versions schedule-destruction 1 --key k",
    "kubectl exec p -- sh -c 'rm -rf /'",
    "kubectl exec p -- rm -rf /data",
    "kubectl exec -it p -c app -- psql -c 'drop table t'",
    "oc exec p -- bash -c 'rm -f /var/lib/app/db'",
    "docker exec c sh -c 'rm -rf /data'",
    "docker compose exec db psql -c 'drop table t'",
    "docker-compose exec db sh -c 'rm -rf /var/lib/x'",
    "docker compose run web rails db:drop",
    "gcloud compute ssh vm --command='rm -rf /data'",
    "ssh host 'rm -rf /data'",
    "ssh host sudo rm -rf /srv",
    "kubectl exec deploy/web -- /bin/sh -c \"psql -c 'drop database prod'\"",
    "docker exec -it c bash -c 'find / -delete'",
    "ssh -t host 'sudo systemctl stop nginx'",
    "kubectl scale statefulset db --replicas=00",
    "telinit emergency",
    "kubectl scale deploy/web --replicas=0",
    "kubectl scale deploy web --replicas 0",
    "aws autoscaling update-auto-scaling-group --auto-scaling-group-name g --desired-capacity 0",
    "gcloud container clusters resize c --num-nodes=0",
    "docker service scale web=0",
    "docker compose up -d --scale web=0",
    "pulumi up --yes",
    "pulumi up --skip-preview",
    "pulumi update -y",
    "pulumi refresh --yes",
    "gsutil rsync -d . gs://b",
    "gsutil -m rsync -rd . gs://b",
    "gsutil mv gs://b/x gs://b/y",
    "gsutil rm -r gs://b",
    "aws s3 mv s3://b/x s3://b/y",
    "redis-cli MODULE LOAD /tmp/x.so",
    "redis-cli module loadex /tmp/x.so",
    "redis-cli EXPIRE k 0",
    "redis-cli ltrim l 0 0",
    "redis-cli zremrangebyscore z -inf +inf",
]
REMOTE_WORK = [
    "kubectl scale deploy web --replicas=3",
    "kubectl exec p -- env",
    "kubectl exec p -- ls /",
    "kubectl exec p -- cat /etc/hosts",
    "docker exec c python -V",
    "ssh host uptime",
    "gsutil cp x gs://b/x",
    "gsutil rsync -r . gs://b",
    "redis-cli EXPIRE k 100",
    "aws iam create-role --role-name x",
    "aws autoscaling update-auto-scaling-group --auto-scaling-group-name g --min-size 0",
    "terraform plan",
    "cargo build",
    "cargo test",
]
REMOTE_READS = ["gsutil ls gs://b", "gsutil cat gs://b/x", "redis-cli get k", "kubectl get pods"]


@pytest.mark.parametrize("cmd", REMOTE_DESTROYS)
def test_remote_destroys(labs, cmd):
    assert _answer(labs, "N", cmd).startswith(DX), cmd
    assert _answer(labs, "S", cmd).startswith(SM), cmd


@pytest.mark.parametrize("cmd", REMOTE_WORK)
def test_remote_work_passes_normal_mode(labs, cmd):
    assert _answer(labs, "N", cmd) == "allow", cmd


@pytest.mark.parametrize("cmd", REMOTE_READS)
def test_remote_reads_pass(labs, cmd):
    for m in "NS":
        assert _answer(labs, m, cmd) == "allow", (cmd, m)


# H2: package tools change the project (denied in safemode)
@pytest.mark.parametrize("cmd", ["rye add x", "rye sync", "hatch env create", "hatch build"])
def test_package_tools(labs, cmd):
    assert _answer(labs, "S", cmd).startswith(SM), cmd


def test_pod_command_words_are_not_local_paths_unless_named_here_too(labs):
    assert _answer(labs, "N", "kubectl exec -f .env p -- cat .env").startswith("[blocked-path]")


@pytest.mark.parametrize(
    "cmd",
    [
        "kubectl --kubeconfig=/tmp/kc get ns",
        "kubectl --kubeconfig /tmp/kc get pods",
        "helm --kubeconfig x list",
    ],
)
def test_a_kubeconfig_option_is_code_nobody_saw(cmd):
    """A kubeconfig file names exec credential plugins kubectl and helm run: like KUBECONFIG=."""
    from core.shell import analysis

    a = analysis.analyse(cmd, "/home/u")
    assert any(c.unknown for c in a.commands), a
