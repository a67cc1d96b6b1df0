# Sourced by .ci/test and verifier-mcu/ci.sh: `packages_ready` returns once the apt part of
# the install (QEMU, Chromium) that `.ci/run` started in the background has ended, and fails
# with its log if it failed. Without PSTK_PACKAGES_STATUS (the README's `.ci/install &&
# .ci/test`, or a script run alone) the packages are already there and it returns at once.
packages_ready() {
    [ -n "${PSTK_PACKAGES_STATUS:-}" ] || return 0
    until [ -e "$PSTK_PACKAGES_STATUS" ]; do sleep 2; done
    if [ "$(cat "$PSTK_PACKAGES_STATUS")" != 0 ]; then
        cat "${PSTK_PACKAGES_STATUS%.status}.log"
        echo "FAIL: the package install (.ci/install --packages) failed"
        return 1
    fi
}
