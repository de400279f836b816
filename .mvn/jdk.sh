# Sourced by ./iolab and ./mvnw: finds a JDK of at least $IOLAB_JDK_MIN (25) in the standard places.
# find_jdk prints its home and returns 0, or returns 1.
IOLAB_JDK_MIN=25

jdk_feature_version() { # the feature version of the JDK at $1, or nothing
  local v=""
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  if [ -f "$1/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release")
  fi
  if [ -z "$v" ]; then
    v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  fi
  printf '%s' "$v"
}

find_jdk() {
  local c v
  for c in "${IOLAB_JAVA_HOME:-}" "${JAVA_HOME:-}" "${JDK_HOME:-}" "${JAVA25_HOME:-}" \
           /usr/lib/jvm/* "${HOME:-/root}"/.sdkman/candidates/java/* "${HOME:-/root}"/.jdks/* /opt/java/* /opt/jdk* \
           /usr/local/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -n "$c" ] && [ -d "$c" ] || continue
    v=$(jdk_feature_version "$c")
    if [ -n "$v" ] && [ "$v" -ge "$IOLAB_JDK_MIN" ]; then
      printf '%s' "$c"
      return 0
    fi
  done
  return 1
}
