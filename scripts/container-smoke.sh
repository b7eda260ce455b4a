#!/usr/bin/env bash
# The container as an operator meets it (docs/container.md): the image built from the Dockerfile, a
# container started with a named volume, healthy by its HEALTHCHECK, GET / answering through the
# published port, running as a user other than root; stopped, then `token create` on the same
# volume prints a new token. Everything it made is removed at the end. `.ci/run` runs it when
# `docker info` succeeds.
set -euo pipefail
cd "$(dirname "$0")/.."

tag="paykit-smoke:$$"
name="paykit-smoke-$$"
volume="paykit-smoke-$$"
cleanup() {
  docker rm -f "$name" >/dev/null 2>&1 || true
  docker volume rm -f "$volume" >/dev/null 2>&1 || true
  docker image rm -f "$tag" >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() { echo "container smoke: $1"; docker logs "$name" 2>&1 | tail -20 || true; exit 1; }

docker build -t "$tag" .
docker run -d --name "$name" -p 127.0.0.1::8000 -v "$volume:/data" -e PAYKIT_SANDBOX_TOKEN=container_smoke_token_01 "$tag" >/dev/null

for _ in $(seq 1 90); do
  status=$(docker inspect --format '{{.State.Health.Status}}' "$name")
  [ "$status" = "healthy" ] && break
  [ "$(docker inspect --format '{{.State.Running}}' "$name")" = "true" ] || fail "the container stopped"
  sleep 2
done
[ "$status" = "healthy" ] || fail "not healthy after 180 s (health: $status)"

port=$(docker port "$name" 8000/tcp | head -1 | sed 's/.*://')
curl -fsS "http://127.0.0.1:$port/" | grep -q '"name":"paykit"' || fail "GET / did not answer paykit's root"
curl -fsS -H "Authorization: Bearer container_smoke_token_01" -H "GoCardless-Version: 2015-07-06" "http://127.0.0.1:$port/creditors" >/dev/null || fail "GET /creditors with the sandbox token failed"
[ "$(docker exec "$name" id -u)" != "0" ] || fail "the server runs as root"

docker stop "$name" >/dev/null
docker run --rm -v "$volume:/data" "$tag" token create --json | grep -q '"access_token":"paykit_rw_' || fail "token create on the volume printed no token"
echo "container smoke: built, healthy, GET / answered, not root, token create on its volume"
