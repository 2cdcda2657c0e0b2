# Tessera's container image: `tessera serve` from a production install (scripts/install-production.sh,
# the same steps as docs/deploying.md), run as an unprivileged user, on a read-only root file system.
# CI runs the install script and starts the service from a read-only directory, but does not build
# this image (it has no container engine): see docs/deploying.md#container-image.
#
#   docker build -t tessera .
#   docker run --read-only --tmpfs /tmp -v tessera-data:/var/lib/tessera -p 4000:4000 \
#     -e TESSERA_URL=https://id.example.com -e TESSERA_SECRET=… -e DATABASE_URL=postgres://… tessera
#
# Writable at run time: /var/lib/tessera (TESSERA_DATA_DIR; the SQLite database when DATABASE_URL is
# unset, a volume) and /tmp (a tmpfs; nothing in Tessera writes there, Node may). Nothing else.

FROM node:20-bookworm AS install
# better-sqlite3's addon is compiled here (python3, make and g++ are in this image) against this
# Node's own headers: the install reaches npm's registry and nothing else.
ENV npm_config_build_from_source=true \
    npm_config_nodedir=/usr/local
WORKDIR /opt/tessera
COPY --chown=node:node . .
USER node
RUN scripts/install-production.sh

FROM node:20-bookworm-slim
# Owned by root and not writable by the user that runs it.
COPY --from=install --chown=root:root /opt/tessera /opt/tessera
ENV NODE_ENV=production \
    TESSERA_DATA_DIR=/var/lib/tessera \
    HOST=0.0.0.0 \
    PORT=4000
RUN install -d -o node -g node -m 0700 /var/lib/tessera
VOLUME ["/var/lib/tessera"]
USER node
WORKDIR /opt/tessera
EXPOSE 4000
# Ready: the database answers and its schema is this release's (503 otherwise).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/readyz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop): requests in flight finish, then exit 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/opt/tessera/packages/server/bin/tessera.mjs"]
CMD ["serve"]
