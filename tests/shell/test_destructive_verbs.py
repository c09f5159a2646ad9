"""Remote, service, database and framework CLIs through the real sanetools.py: a verb that
deletes, destroys, replaces, stops or revokes state gets the [destructive] ask in normal mode
and [safemode] under safemode; a verb the profile lists as a read passes both modes; other
changes pass normal mode only. Rows name the mode, the answer ([code] of a deny, "ask [code]"
or "allow") and a word the reason must hold.

Modes: "normal" (research done), "safe" (research done, safemode on by the person's `s+`).
"""

import pytest

from conftest import HOOKS
from shell.labs import answer, pre, two_mode_labs

DX = "ask [destructive]"
SM = "[safemode]"

# each destroying spelling: the [destructive] ask in normal mode, [safemode] under safemode
DESTROYS = [
    # SQL: DROP, TRUNCATE, DELETE/UPDATE without a column filter, EXPLAIN ANALYZE of one
    ('psql -c "UPDATE users SET active=false"', "drops or deletes"),
    ('psql -c "DELETE FROM users"', "drops or deletes"),
    ('psql -c "DELETE FROM users WHERE 1=1"', "drops or deletes"),
    ("mysql -e 'UPDATE t SET a=1 WHERE true'", "drops or deletes"),
    ('psql -c "EXPLAIN ANALYZE DELETE FROM t"', "drops or deletes"),
    ('psql -c "ALTER TABLE t DROP COLUMN c"', "drops or deletes"),
    ('sqlite3 test.db "DELETE FROM users"', "drops or deletes"),
    ('sqlite3 test.db ".drop trigger t"', "drops or deletes"),
    ("dropdb myapp_production", "dropdb"),
    ("pg_dump --clean mydb", "--clean"),
    ("pg_dump -c mydb", "--clean"),
    ("pg_restore --clean -d db backup.dump", "drops"),
    ("mongorestore --drop dump/", "drops"),
    ("mysqladmin drop myapp", "drop"),
    ("mysqladmin flush-tables", "flush-tables"),
    ("mysqladmin -u root shutdown", "shutdown"),
    ("pg_ctl -D data stop", "stop"),
    # redis: the command table
    ("redis-cli SHUTDOWN", "shutdown"),
    ("redis-cli -h prod -n 2 flushall", "flushall"),
    ("redis-cli CONFIG SET dir /tmp", "CONFIG SET"),
    ("redis-cli DEBUG SLEEP 1", "DEBUG"),
    ("echo FLUSHDB | redis-cli", "deletes data"),
    ("redis-cli --cluster call h:1 FLUSHALL", "FLUSHALL"),
    # Mongo shell code
    ('mongosh --eval "db.dropDatabase()"', "drops"),
    ("mongosh mydb --eval 'db.users.drop()'", "drops"),
    ('mongosh --eval "db.users.deleteMany({})"', "drops"),
    ('mongosh --eval "db.users.remove({})"', "drops"),
    ('mongosh --eval "db.users.updateMany({}, {$set: {a: 1}})"', "drops"),
    ('mongosh --eval "db.shutdownServer()"', "shuts down"),
    ("echo 'db.dropDatabase()' | mongosh app", "drops"),
    # framework task runners: the task word's parts split on : - _ .
    ("rails db:drop", "db:drop"),
    ("rake db:drop:all", "db:drop:all"),
    ("RAILS_ENV=production rails db:reset", "db:reset"),
    ("python manage.py flush", "flush"),
    ("php artisan migrate:fresh", "migrate:fresh"),
    ("mix ecto.reset", "ecto.reset"),
    ("mix ecto.drop", "ecto.drop"),
    # containers and service managers: stop, kill, down, rm
    ("docker stop my-container", "stop"),
    ("docker stop $(docker ps -q)", "stop"),
    ("docker-compose stop", "stop"),
    ("docker compose -f a.yml down -v", "down"),
    ("podman kill web", "kill"),
    ("systemctl stop nginx", "stop"),
    ("systemctl mask sshd", "mask"),
    ("service nginx stop", "stop"),
    # secrets managers and other CLIs
    ("vault lease revoke -prefix app/", "revoke"),
    ("vault policy delete p", "delete"),
    ("vault auth disable github", "disable"),
    ("vault audit disable file", "disable"),
    ("vault kv metadata delete secret/x", "delete"),
    ("ansible all -m file -a 'path=/x state=absent'", "destroys"),
    ("rsync --remove-source-files -a src/ /tmp/dst/", "--remove-source-files"),
    ("rclone sync src remote:b", "sync"),
    ("rclone purge remote:b", "purge"),
    ("restic forget --keep-last 1 --prune", "forget"),
    ("borg compact", "compact"),
    ("kafka-delete-records --bootstrap-server x --offset-json-file o.json", "delete"),
    ("rabbitmqctl delete_user deployer", "delete_user"),
    ("curl -X POST http://x:9200/logs/_delete_by_query -d '{}'", "delete"),
    ("gh release delete v1.0.0 --yes", "gh release delete"),
    ("gh repo delete owner/repo --yes", "gh repo delete"),
    ("aws secretsmanager put-secret-value --secret-id x --secret-string y", "put-secret-value"),
    ("aws ssm put-parameter --name x --value y --overwrite", "put-parameter"),
    ("kubectl rollout undo deployment/web", "undo"),
    ("alembic downgrade base", "downgrade"),
    ("consul catalog deregister -node x", "deregister"),
]

# reads by the profile: they pass safemode (and normal mode)
READS = [
    'psql -c "\\d+ users"',
    "psql -c 'EXPLAIN ANALYZE SELECT 1'",
    "mysqladmin status",
    'mongosh --eval "db.users.find()"',
    'mongosh --eval "show dbs"',
    "echo 'db.users.find()' | mongosh",
    "mongosh --eval 'db.users.find({_id: ObjectId(\"x\")}).limit(5)'",
    'sqlite3 test.db "SELECT * FROM users"',
    'sqlite3 test.db ".tables"',
    "redis-cli GET k",
    "redis-cli --scan --pattern 'user:*'",
    "redis-cli -h cache INFO",
    "pg_dump mydb",
    "pg_restore -l backup.dump",
    "vault status",
    "vault kv metadata get secret/x",
    "systemctl status nginx",
    "rclone ls remote:x",
    "restic snapshots",
    "docker compose ps",
    "ansible all -m ping",
    "consul members",
    "consul catalog services",
    "velero backup get",
    "service --status-all",
    "mysql -e 'SELECT 1\\G'",
]

# changes that destroy nothing: normal mode passes, safemode denies
CHANGES = [
    'psql -c "DELETE FROM users WHERE id = 1"',
    'psql -c "UPDATE users SET a=1 WHERE id=2"',
    "mongosh --eval 'db.users.insertOne({a: 1})'",
    "mongosh --eval 'db.users.deleteMany({status: 1})'",
    "redis-cli SET k v",
    "docker start web",
    "docker compose up -d",
    "systemctl restart nginx",
    "rclone copy src remote:b",
    "vault kv put secret/x a=1",
    "mysqladmin create myapp",
]

# client commands that reach this machine are code the hooks cannot see: every word checked
UNSEEN = [
    ("psql -c '\\! rm .claude/settings.json'", "[self-protection]"),
    ("mysql -e 'system rm .claude/settings.json'", "[self-protection]"),
    ('mongosh --eval \'runProgram("rm", ".claude/settings.json")\'', "[self-protection]"),
    ("rclone copy remote:x .claude/", "[self-protection]"),
    ("kubectl cp pod:/x scripts/hooks/sanetools.py", "[self-protection]"),
    ("ansible all -m copy -a 'src=.env dest=/tmp/x'", "[blocked-path]"),
    ("vault operator raft snapshot save .claude/settings.json", "[self-protection]"),
    ("psql -c 'SELECT 1 \\g .claude/settings.json'", "[self-protection]"),
    ("ansible all -m setup --tree .claude/", "[self-protection]"),
    ("ansible all -m ping -e @.env", "[blocked-path]"),
]

# a change that copies or saves to a local path writes that path
WRITES = [
    ("aws s3 cp s3://b/x .claude/settings.json", "[self-protection]"),
    ("aws --profile p s3 sync s3://b scripts/hooks", "[self-protection]"),
    ("gcloud storage cp gs://b/x .claude/settings.json", "[self-protection]"),
    ("docker cp web:/x .claude/settings.json", "[self-protection]"),
    ("docker save -o .claude/settings.json img", "[self-protection]"),
    ("helm pull x --untar --untardir scripts/hooks", "[self-protection]"),
    ("consul snapshot save .claude/settings.json", "[self-protection]"),
    ("az storage blob download -f .claude/settings.json -n x -c y", "[self-protection]"),
    ("aws s3 cp s3://b/x README.md", "allow"),
    ("aws s3 cp README.md s3://b/x", "allow"),
    ("docker cp README.md web:/x", "allow"),
]

# ordinary work whose words look like verbs: no ask
ORDINARY = [
    "mix test",
    "rake test",
    "python manage.py migrate",
    "kill 12345",
    "git config alias.nuke x",
    "docker cp README.md web:/x",
    "ffmpeg -i video.rm out.mp4",
    "frob convert delete.txt",
    "npm stop",
    "aws ssm put-parameter --name x --value y",
]


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    files = {"README.md": "readme\n", ".env": "TOKEN=x\n", "~/.ssh/": None}
    return two_mode_labs(tmp_path_factory, "verbs", files)


def _answer(labs, mode, cmd):
    return answer(pre(labs[mode], cmd))


@pytest.mark.parametrize("cmd,why", DESTROYS, ids=[r[0][:50] for r in DESTROYS])
def test_destroying_verb_asks_in_normal_mode(labs, cmd, why):
    got = _answer(labs, "normal", cmd)
    assert got.startswith(DX), "%r -> %r" % (cmd, got)
    assert why.lower() in got.lower(), "%r: reason lacks %r: %r" % (cmd, why, got)


@pytest.mark.parametrize("cmd,why", DESTROYS, ids=[r[0][:50] for r in DESTROYS])
def test_destroying_verb_is_denied_in_safemode(labs, cmd, why):
    got = _answer(labs, "safe", cmd)
    assert got.startswith(SM), "%r -> %r" % (cmd, got)


@pytest.mark.parametrize("cmd", READS)
@pytest.mark.parametrize("mode", ("normal", "safe"))
def test_profile_read_passes(labs, mode, cmd):
    assert _answer(labs, mode, cmd) == "allow"


@pytest.mark.parametrize("cmd", CHANGES)
def test_change_passes_normal_mode_only(labs, cmd):
    assert _answer(labs, "normal", cmd) == "allow"
    got = _answer(labs, "safe", cmd)
    assert got.startswith(SM) and "change" in got, "%r -> %r" % (cmd, got)


@pytest.mark.parametrize("cmd,code", UNSEEN, ids=[r[0][:50] for r in UNSEEN])
def test_client_command_reaching_this_machine_is_checked(labs, cmd, code):
    got = _answer(labs, "normal", cmd)
    assert got.startswith(code), "%r -> %r" % (cmd, got)


@pytest.mark.parametrize("cmd,code", WRITES, ids=[r[0][:50] for r in WRITES])
def test_copy_to_a_local_path_writes_it(labs, cmd, code):
    got = _answer(labs, "normal", cmd)
    assert got.startswith(code), "%r -> %r" % (cmd, got)


@pytest.mark.parametrize("cmd", ORDINARY)
def test_verb_looking_words_of_ordinary_work_pass(labs, cmd):
    assert _answer(labs, "normal", cmd) == "allow"


def test_destroying_splits_task_words():
    import sys

    sys.path.insert(0, HOOKS)
    from core.shell.verbs import destroying

    assert [w for w in ("db:drop", "ecto.reset", "delete_user", "apps:destroy") if destroying(w)]
    assert not [
        w
        for w in ("delete.txt", "video.rm", "dropbox:x", "-delete", "a/delete", "x=drop")
        if destroying(w)
    ]
    assert destroying("sync", frozenset(("sync",))) and not destroying("sync")
