#!/usr/bin/env bash
# Make the secrets of a TLS + ACL deployment (compose.cluster.yaml, k8s/):
#
#   deploy/make-secrets.sh [OUT_DIR] [NAMESPACE]      (defaults: deploy/secrets, risk)
#
# writes into OUT_DIR (created with mode 0700; never commit it, .gitignore keeps it out):
#   ca.crt ca.key          a private CA, valid 825 days, that signs the two certificates below
#   redis.crt redis.key    the Redis nodes' certificate: compose's redis-1..redis-6, the
#                          Kubernetes pods *.redis-cluster[.NAMESPACE.svc.cluster.local], localhost
#   client.crt client.key  the service's client certificate (Redis has tls-auth-clients yes)
#   admin-password risk-password   random passwords of the two Redis users
#   users.acl              deploy/redis/users.acl.template with their SHA-256 digests
#   kubernetes.yaml        the three Secrets k8s/ mounts: redis-tls, redis-acl, risk-redis-client
# Existing files are kept: run it again after deleting one to renew it. The private key files
# are readable by all (0644) because the containers read them as their own non-root users
# (redis 999, risk 10001); OUT_DIR itself is 0700.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/secrets}
namespace=${2:-risk}
mkdir -p "$out"
chmod 700 "$out"
cd "$out"

ec_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:prime256v1 -out "$1" 2>/dev/null; }

if [ ! -f ca.crt ]; then
  ec_key ca.key
  openssl req -x509 -new -key ca.key -sha256 -days 825 -subj "/CN=risk deployment CA" \
    -out ca.crt
fi

# sign NAME SUBJECT EXTENSIONS: NAME.key and NAME.crt signed by the CA
sign() {
  local name=$1 subject=$2 extensions=$3
  [ -f "$name.crt" ] && return 0
  ec_key "$name.key"
  openssl req -new -key "$name.key" -subj "$subject" -out "$name.csr"
  printf '%b' "$extensions" > "$name.ext"
  openssl x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -sha256 \
    -days 825 -extfile "$name.ext" -out "$name.crt" 2>/dev/null
  rm -f "$name.csr" "$name.ext"
}

sans="DNS:localhost,IP:127.0.0.1"
for i in 1 2 3 4 5 6; do sans="$sans,DNS:redis-$i"; done
sans="$sans,DNS:*.redis-cluster,DNS:*.redis-cluster.$namespace.svc,DNS:*.redis-cluster.$namespace.svc.cluster.local"
# the nodes also present this certificate to each other (replication, cluster bus): clientAuth
sign redis "/CN=redis-cluster" "subjectAltName=$sans\nextendedKeyUsage=serverAuth,clientAuth\n"
sign client "/CN=risk-service" "extendedKeyUsage=clientAuth\n"
chmod 644 ./*.key ./*.crt

for user in admin risk; do
  if [ ! -f "$user-password" ]; then
    openssl rand -hex 24 > "$user-password"
  fi
done
chmod 644 admin-password risk-password

digest() { tr -d '\n' < "$1" | openssl dgst -sha256 -r | cut -d' ' -f1; }
grep -v '^[[:space:]]*#' "$here/redis/users.acl.template" | grep -v '^[[:space:]]*$' \
  | sed -e "s/@ADMIN_SHA256@/$(digest admin-password)/" -e "s/@RISK_SHA256@/$(digest risk-password)/" \
  > users.acl
chmod 644 users.acl

# secret NAME FILE...: a Kubernetes Secret with one key per file
secret() {
  local name=$1
  shift
  printf -- '---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: %s\n  namespace: %s\ntype: Opaque\ndata:\n' \
    "$name" "$namespace"
  for file in "$@"; do
    printf '  %s: %s\n' "$file" "$(base64 -w0 < "$file")"
  done
}
{
  secret redis-tls ca.crt redis.crt redis.key
  secret redis-acl users.acl admin-password
  secret risk-redis-client ca.crt client.crt client.key risk-password
} > kubernetes.yaml
chmod 600 kubernetes.yaml

echo "secrets in $out (namespace $namespace): kubectl apply -f $out/kubernetes.yaml"
