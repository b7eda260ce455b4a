# paykit's server in a container: `docker build -t paykit .`, then
#   docker run -p 8000:8000 -v paykit-data:/data paykit                  (the server: `paykit start`)
#   docker run --rm -v paykit-data:/data paykit token create             (with the server stopped, on PGlite)
# Every setting is an environment variable (-e PAYKIT_SANDBOX_TOKEN=...) or a flag after `start`.
# docs/container.md says what each part is for.

# Build: the workspace compiled, then its packages packed and installed into /app as an app
# installs them from a registry (the tarballs' files only, dependencies without devDependencies).
FROM node:22-slim AS build
WORKDIR /src
COPY package.json package-lock.json tsconfig.base.json tsconfig.build.json ./
COPY packages ./packages
# The root's devDependencies hold the toolchain and the peers, installed as CI installs them.
RUN npm ci --no-audit --no-fund
RUN npm run build && mkdir /tarballs && npm pack --workspaces --pack-destination /tarballs --silent
WORKDIR /app
# The peers at the versions the workspace tests with (the root's devDependencies, as scripts/pack-check.ts installs them).
RUN echo '{"name":"paykit-container","private":true,"type":"module"}' > package.json \
 && node -e 'const d = require("/src/package.json").devDependencies; console.log(["effect", "@effect/platform-node", "@effect/sql-pg"].map((n) => `${n}@${d[n]}`).join(" "))' > /tmp/peers \
 && npm install --omit=dev --no-audit --no-fund $(cat /tmp/peers) /tarballs/*.tgz \
 && npm cache clean --force

# Runtime: Node 22, the installed app, run as the image's unprivileged `node` user.
FROM node:22-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    PAYKIT_DATA_DIR=/data/pglite
COPY --from=build --chown=root:root /app /app
RUN mkdir -p /data && chown node:node /data
USER node
WORKDIR /app
# The PGlite database and the webhook key file (PAYKIT_DATA_DIR, and the key beside it): keep them in a volume.
VOLUME ["/data"]
# The API, and the OAuth connect server on PORT + 1.
EXPOSE 8000 8001
# Ready: the database answers and its migrations are current (GET /health/ready, docs/operations.md). No curl in a
# slim image: Node's own fetch. PAYKIT_METRICS_PORT (unset here) would add a Prometheus listener of its own.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT ?? 8000}/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/node_modules/@paykit/server/dist/cli/paykit.js"]
CMD ["start"]
