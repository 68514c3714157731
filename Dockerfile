# gpu-warden in a container (docs/operations.md). Build: docker build -t gpu-warden .
# Run: docker run -d --name gpu-warden --env-file gpu-warden.env \
#        -v gpu-warden-store:/var/lib/gpu-warden -v "$PWD/gpu-warden.yaml:/etc/gpu-warden/gpu-warden.yaml:ro" gpu-warden

# 1. Type-check the TypeScript sources and bundle them into dist/ (dev dependencies only live here).
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs scripts/
COPY src src
RUN npm run build

# 2. The runtime dependencies, with better-sqlite3's native binary (downloaded, or compiled where
#    no prebuilt binary exists for the platform).
FROM node:20-bookworm-slim AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# 3. The image: node, ssh for the SSH source, the compiled bot, no compilers, not root.
FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends openssh-client \
  && rm -rf /var/lib/apt/lists/* \
  && groupadd --system --gid 10001 gpu-warden \
  && useradd --system --uid 10001 --gid gpu-warden --home-dir /var/lib/gpu-warden gpu-warden \
  && install -d -o gpu-warden -g gpu-warden -m 0700 /var/lib/gpu-warden \
  && install -d -m 0755 /etc/gpu-warden
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /src/dist dist
COPY package.json manifest.yml gpu-warden.example.yaml ./
COPY bin/gpu-warden.js bin/
USER gpu-warden
# The store (gpu-warden.db in the working folder, or store.path) and the SSH keys (~/.ssh).
WORKDIR /var/lib/gpu-warden
VOLUME ["/var/lib/gpu-warden"]
# /healthz and /metrics, and POST /slack/events in HTTP mode. Set http.host: 0.0.0.0 in the
# configuration to reach them from outside the container.
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# --enable-source-maps: dist/ is a bundle; with its maps a stack trace names the lines of src/.
ENTRYPOINT ["node", "--enable-source-maps", "--max-semi-space-size=8", "--max-old-space-size=192", "/app/bin/gpu-warden.js"]
CMD ["start", "--config", "/etc/gpu-warden/gpu-warden.yaml"]
