# chatbench for users, built from the packed package (what `npm install chatbench` installs): only
# runtime dependencies, no sources, no build tools. deploy/Dockerfile is the shard recipes' image.
#
#   npm pack                                   # chatbench-<version>.tgz here (prepack builds dist/)
#   docker build -t chatbench .
#   docker run --rm chatbench demo --quick
#   docker run --rm -v "$PWD:/work" -e CHATBENCH_BASE_URL -e CHATBENCH_TOKEN chatbench eval
#
# Runs as the image's `node` user in /work: mount the directory holding your config, dataset and
# sets there; run directories are written under it (reports/). docs/install.md explains it.
FROM node:20-slim
# Exactly one tarball: `npm pack` of this checkout (Dockerfile.dockerignore sends nothing else).
COPY chatbench-*.tgz /tmp/
RUN npm install --global --no-audit --no-fund /tmp/chatbench-*.tgz \
  && rm /tmp/chatbench-*.tgz \
  && npm cache clean --force \
  && mkdir /work && chown node:node /work
USER node
WORKDIR /work
ENTRYPOINT ["chatbench"]
CMD ["--help"]
