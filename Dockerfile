# syntax=docker/dockerfile:1
# The ESL server's image (docs/DEPLOY.md, "Containers"). Build: docker build -t esl-server .
# Node.js 22 LTS by default; --build-arg NODE_VERSION=24 for 24 LTS.
ARG NODE_VERSION=22

# Build stage: the full Debian image has python3, make and g++ for the native modules.
FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /app
COPY . .
RUN bash scripts/build-image.sh

# Run stage: the slim image of the same Debian and Node.js, production dependencies only.
FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/apps/server/package.json ./apps/server/package.json
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/simulator ./apps/simulator
COPY --from=build /app/apps/web/package.json ./apps/web/package.json
COPY --from=build /app/apps/web/dist ./apps/web/dist
RUN mkdir -p /data && chown node:node /data
# Not root: the image's own unprivileged user owns only the data folder.
USER node
VOLUME ["/data"]
# HTTP (console, API, probes) and the embedded station broker (MQTT) when no MQTT_URL is set.
EXPOSE 8080 1884
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains (/readyz 503) and stops within SHUTDOWN_TIMEOUT_MS (default 10 s, below Docker's 10 s kill: set stop_grace_period above it).
CMD ["node", "--max-semi-space-size=32", "apps/server/dist/main.js"]
