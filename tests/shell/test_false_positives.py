"""False positives of default-deny: ordinary developer commands must pass. Read-only ones pass
under safemode and normal mode; tests, builds, package installs, formatters and git work pass
in normal mode after research. At most 1 in 200 may be denied (an [destructive] ask is not a
denial). Every command runs through the real PreToolUse gates in-process (the engine the
script runs); a sample runs through sanetools.py itself."""

import os

import pytest

from conftest import clean_env
from shell.labs import engine_bash, engine_session, environ

READS = """
ls
ls -la
ls -la src/
ls -lh --color=auto
ls -1 tests | wc -l
cat README.md
cat setup.cfg pyproject.toml
head -n 20 src/app.py
head -c 200 data.csv
tail -n 50 app.log
tail -n +2 data.csv | head
wc -l src/*.py
wc -c README.md
grep -rn TODO src/
grep -n "def main" src/app.py
grep -rl "import os" --include=*.py .
grep -c error app.log
grep -E "^(a|b)" data.csv
rg foo
rg -n "def main" --type py
rg --files | head
rg -l TODO src
ag TODO src
find . -name '*.py'
find src -type f -name '*.ts' | head -20
find . -maxdepth 2 -type d
find . -newer setup.cfg -type f
find . -name '*.py' | xargs wc -l
find . -name '*.py' -exec grep -l TODO {} +
git status
git status --short
git log --oneline -20
git log -p -- src/app.py
git log --graph --oneline --all
git log --since="2 weeks ago" --author=me
git diff
git diff --stat HEAD~1
git diff --cached
git diff main...feature
git show HEAD
git show HEAD~2:src/app.py
git show --stat abc123
git blame src/app.py
git branch
git branch -a
git branch --show-current
git remote -v
git tag
git tag -l 'v1.*'
git stash list
git ls-files
git ls-files src | head
git rev-parse HEAD
git rev-parse --abbrev-ref HEAD
git describe --tags
git shortlog -sn
git config --get user.name
git config --list
git grep -n foo
git reflog -10
git cat-file -t HEAD
git worktree list
git clean -n
git clean -nd
git --version
git help log
tree -L 2
tree -a -I node_modules
du -sh .
du -h --max-depth=1 src
df -h
pwd
whoami
id
date
date +%Y-%m-%d
uname -a
hostname
uptime
free -m
ps aux
ps aux | grep node
pgrep -fl python
echo hello
echo "$PATH"
echo $HOME
printf '%s\\n' a b c
which python3
type ls
command -v node
env | sort
printenv PATH
jq . package.json
jq '.scripts' package.json
jq -r '.dependencies | keys[]' package.json
yq '.services' docker-compose.yml
python3 --version
python3 -V
node --version
npm --version
npm ls
npm ls --depth=0
npm outdated
npm view react version
npm audit
pip list
pip show requests
pip freeze
pip --version
cargo --version
go version
go env
go list ./...
rustc --version
java -version
docker ps
docker ps -a
docker images
docker logs app
docker logs -f --tail 100 app
docker inspect app
docker compose ps
docker compose logs web
docker version
kubectl get pods
kubectl get pods -n prod -o wide
kubectl describe pod web-1
kubectl logs web-1 -c app
kubectl config current-context
kubectl config get-contexts
kubectl top pods
kubectl get ns
kubectl explain deployment
helm list
helm status web
helm template ./chart
terraform output
terraform fmt -check
aws s3 ls
aws s3 ls s3://bucket/prefix/
aws sts get-caller-identity
aws ec2 describe-instances --region us-east-1
aws logs describe-log-groups
gcloud config list
gcloud compute instances list
az account show
systemctl status nginx
systemctl list-units --type=service
systemctl is-active nginx
journalctl -u nginx -n 50
service nginx status
stat README.md
file src/app.py
sha256sum dist/app.tar.gz
md5sum README.md
diff a.txt b.txt
diff -u old.py new.py
cmp a.bin b.bin
sort data.txt
sort -u names.txt | uniq -c
sort -t, -k2 -n data.csv
uniq -c sorted.txt
cut -d, -f1 data.csv
awk '{print $1}' app.log
awk -F, '{s+=$2} END {print s}' data.csv
sed -n '1,20p' src/app.py
sed 's/foo/bar/g' src/app.py
tr a-z A-Z < README.md
column -t data.tsv
xxd bin.dat | head
od -c README.md | head
basename src/app.py
dirname src/app.py
realpath src
readlink -f src
cat a.txt | grep b | sort | uniq
curl -s https://api.github.com/repos/a/b
curl -I https://example.com
curl -sSL https://example.com/health
wget -qO- https://example.com
python3 -m json.tool package.json
psql -c "SELECT count(*) FROM users"
psql -c "\\dt"
psql -l
mysql -e "SHOW TABLES"
mysql -e "SELECT id, name FROM users LIMIT 10"
redis-cli get session:1
redis-cli ping
redis-cli --scan --pattern 'user:*'
man ls
make --help
make --version
npx --version
cmake --version
gcc --version
kubectl version
ruff --version
black --check .
black --diff src
ruff check .
ruff format --check .
isort --check-only .
shellcheck scripts/build.sh
rsync -n -av src/ backup/
rsync --dry-run -a src/ /tmp/x/
git diff HEAD --name-only | xargs grep -l TODO
ls src/*.py | head
for f in src/*.py; do wc -l "$f"; done
if [ -f setup.cfg ]; then echo yes; fi
test -d build && echo built
[ -n "$CI" ] || echo local
seq 1 10
sleep 1
true
stat -c %s README.md
cat package.json | jq .version
git log --format='%H %s' -n 5
git show --name-only HEAD
git diff --name-status main
git status -sb
git rev-list --count HEAD
git for-each-ref --format='%(refname)'
git merge-base main HEAD
git ls-tree -r HEAD --name-only
git cat-file -p HEAD
git remote show origin
git log --all --oneline -- README.md
git check-ignore -v build
git config user.email
git stash show -p
git diff HEAD~3..HEAD -- src
ls -R src | head
find . -type f -name '*.md' -not -path './node_modules/*'
find . -maxdepth 1 -printf '%f\\n'
grep -rIl --exclude-dir=.git foo .
rg -uu pattern
fd -e py
fd pattern src
cat /proc/cpuinfo
lsof -i :8000
ss -tlnp
netstat -an
ip addr
ps -ef --forest
top -bn1
date -u
env
printenv HOME
id -u
uname -r
jq -r '.name' package.json
npm run
npm view lodash versions --json
pip index versions requests
go list -m all
docker info
docker stats --no-stream
docker compose config
kubectl get deploy -A
kubectl describe node n1
kubectl auth can-i get pods
kubectl rollout status deploy/web
helm get values web
terraform state list
terraform output -json
aws s3api list-buckets
aws cloudformation describe-stacks
gcloud projects list
az group list
systemctl list-timers
journalctl -xe
curl -sS -H 'Accept: application/json' https://api.example.com/items
curl -o /tmp/x.json https://api.example.com/items
wget -O /tmp/page.html https://example.com
http GET example.com
psql -Atc 'select 1'
sqlite3 -readonly db.sqlite 'select * from t'
redis-cli info
redis-cli keys '*'
cmake --help
tsc --version
eslint --version
black --version
shellcheck -x scripts/*.sh
yamllint .
hadolint Dockerfile
diff <(sort a) <(sort b)
comm -12 <(sort a) <(sort b)
du -sh * | sort -h
wc -l $(git ls-files '*.py')
cat $(find . -name '*.txt')
for f in *.py; do echo $f; done
while read -r l; do echo "$l"; done < README.md
echo $((1+2))
test -f x && cat x
[[ -d src ]] && ls src
xargs -n1 echo < list.txt
tee < README.md /dev/null
time ls
timeout 5 cat README.md
nice ls
test -f setup.cfg || exit 0
for f in src/*; do [ -d "$f" ] && continue; echo "$f"; done
"""

WORK = """
cargo tree
cargo metadata --format-version 1
terraform plan
terraform validate
terraform show
prettier --check src
eslint src
pytest
pytest --version
pytest --help
pytest -q
pytest -x tests/
pytest -k test_app -vv
python -m pytest -q
python3 -m pytest tests/test_app.py::test_one
python3 -m unittest discover
tox -e py311
nox -s tests
npm test
npm run build
npm run lint
npm run test -- --watch=false
yarn test
yarn build
pnpm test
make
make test
make -j4 build
cargo build
cargo test
cargo run -- --help
cargo check
cargo clippy
go test ./...
go build ./...
go vet ./...
go run ./cmd/app
mvn test
mvn -q package
gradle build
./gradlew test
./scripts/test.sh
bash scripts/build.sh
sh ./configure
python3 scripts/gen.py
node scripts/build.js
npx tsc --noEmit
npx jest
tsc -p .
cmake -S . -B build
cmake --build build
ctest --test-dir build
dotnet test
git add -A
git add src/app.py
git commit -m "Fix the parser"
git commit -am "wip"
git checkout -b feature/x
git checkout main
git switch main
git switch -c fix
git pull
git pull --rebase
git fetch origin
git fetch --all --prune
git merge main
git rebase main
git stash
git stash pop
git push
git push origin feature/x
git push -u origin HEAD
git cherry-pick abc123
git tag v1.2.3
git restore src/app.py
git rm old.py
git mv a.py b.py
mkdir -p build
mkdir -p src/utils
touch src/__init__.py
cp config.example.yml config.yml
cp -r templates out/
mv old.txt new.txt
rm notes.txt
rm -f build/app.o
rm -rf build dist
rm -rf node_modules
rm -rf .pytest_cache __pycache__
pip install -r requirements.txt
pip install -e .
pip install requests
python3 -m pip install --upgrade pip
npm install
npm ci
npm install --save-dev jest
yarn
yarn add react
pnpm install
cargo add serde
go mod tidy
go get github.com/x/y
poetry install
uv sync
black .
ruff check --fix .
ruff format .
isort .
prettier --write src
eslint --fix src
gofmt -w .
go fmt ./...
cargo fmt
sed -i 's/foo/bar/g' src/app.py
echo "x = 1" > src/const.py
echo "line" >> notes.txt
printf 'a\\nb\\n' > data.txt
cat > src/new.py <<'EOF'
print("hi")
EOF
tar czf out.tgz src
tar xzf vendor.tgz -C vendor
unzip -o assets.zip -d assets
zip -r out.zip src
chmod +x scripts/run.sh
ln -s ../shared shared
docker build -t app .
docker compose up -d
docker compose down
docker run --rm app pytest
kubectl apply -f k8s/
kubectl rollout restart deployment/web
curl -X POST -d '{"a":1}' http://localhost:8000/api
find . -name '*.pyc' -delete
find . -name __pycache__ -type d -exec rm -rf {} +
python3 -m venv .venv
source .venv/bin/activate && pytest
.venv/bin/python -m pytest
"""


def _lines(text):
    out = []
    buf = None
    for line in text.strip("\n").split("\n"):
        if buf is not None:
            buf.append(line)
            if line == "EOF":
                out.append("\n".join(buf))
                buf = None
            continue
        if "<<'EOF'" in line:
            buf = [line]
            continue
        if line.strip():
            out.append(line)
    return out


READ_CMDS = _lines(READS)
WORK_CMDS = _lines(WORK)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("fp"))
    project = os.path.realpath(os.path.join(root, "project"))
    for d in (".claude", "src", "tests", "scripts", "build"):
        os.makedirs(os.path.join(project, d))
    env = clean_env(os.path.join(root, "home"))
    os.makedirs(env["HOME"])
    return project, env


def _run(lab, mode, commands):
    project, env = lab
    sid = "fp-" + mode
    denied = []
    with environ(dict(env, CLAUDE_PROJECT_DIR=project)):
        engine_session(project, sid, "s+" if mode == "safe" else "s-")
        for i, cmd in enumerate(commands):
            ctx = engine_bash(project, sid, cmd, "t%d" % i)
            if ctx.answer.block:
                denied.append((cmd, ctx.answer.block[:160]))
    return denied


def test_corpus_is_realistic_and_large():
    assert len(READ_CMDS) >= 200 and len(WORK_CMDS) >= 100
    assert len(set(READ_CMDS + WORK_CMDS)) == len(READ_CMDS + WORK_CMDS)


@pytest.mark.parametrize("mode", ["normal", "safe"])
def test_reads_pass(lab, mode):
    denied = _run(lab, mode, READ_CMDS)
    print("\n%s: %d of %d read-only commands denied" % (mode, len(denied), len(READ_CMDS)))
    for d in denied:
        print("  ", d)
    assert len(denied) * 200 <= len(READ_CMDS), denied


def test_work_passes_in_normal_mode(lab):
    denied = _run(lab, "normal", WORK_CMDS)
    print("\n%d of %d work commands denied" % (len(denied), len(WORK_CMDS)))
    for d in denied:
        print("  ", d)
    assert len(denied) * 200 <= len(WORK_CMDS) + len(READ_CMDS), denied


def test_work_is_held_in_safemode(lab):
    """The other side: in safemode the same work is denied (it changes things or runs code
    the hooks cannot see), always as [safemode] or a guard, never let through."""
    denied = _run(lab, "safe", WORK_CMDS)
    passed = set(WORK_CMDS) - {c for c, _ in denied}
    assert not passed, " | ".join(sorted(passed))


@pytest.mark.parametrize("cmd", READ_CMDS[::40] + WORK_CMDS[::40])
def test_sample_through_sanetools(proj, cmd):
    proj.research()
    r = proj.pre("Bash", {"command": cmd})
    assert r.denied is None, (cmd, r.denied)


# a looker fed names by xargs prints them for no other command to read; tree -I is a pattern
@pytest.mark.parametrize(
    "cmd",
    [
        "find . -name '*.log' -print0 | xargs -0 ls -la",
        "find src -type f | xargs ls -l",
        "tree -a -I '.git|node_modules' -L 3",
    ],
)
def test_fed_lookers_and_tree_patterns_pass_safemode(cmd, tmp_path):
    from conftest import Project

    proj = Project(str(tmp_path))
    proj.write(".env", "SECRET=1\n")
    proj.research()
    proj.prompt("s+")
    r = proj.pre("Bash", {"command": cmd})
    assert r.denied is None, (cmd, r.denied)
