# The reference service as a container image: the conformance suite's default target, runnable
# where the real services are not. The base image is a build argument so an air-gapped CI can use a
# mirror or a locally built image (scripts/build-base-image.sh makes local/node-base:20 from the
# machine's own node). The base needs only a `node` (>= 20.19) on PATH: dependencies are not
# installed in the image but copied from the build context, so run `npm ci` before building.
#
#   docker build --build-arg BASE_IMAGE=node:20-bookworm-slim -t ledger-conformance/reference:local .
#   docker run --rm -p 4010:4010 ledger-conformance/reference:local [--defect NAME]...
ARG BASE_IMAGE=node:20-bookworm-slim
FROM ${BASE_IMAGE}

WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY node_modules ./node_modules
COPY fixtures ./fixtures
COPY common ./common
COPY reference ./reference

ENV NODE_ENV=production
EXPOSE 4010
USER 1000:1000
# /health answers 200 once the service listens (the suite waits for it).
ENTRYPOINT ["node", "--import", "tsx", "reference/cli.ts", "--host", "0.0.0.0", "--port", "4010"]
CMD []
