# Sourced by the scripts that compare two pbem builds (robot-identity.sh, robot-instructions.sh).
#
# two_builds SCRIPT "$@": reads OLD_PBEM NEW_PBEM [GAME[:OPTION,...]...] into OLD, NEW and GAMES (by
# default every game with a robot, Go at -size=9: at 19 x 19 robot2 against robot1 took over 20 minutes
# a game on a loaded machine); exits 64 with the usage on bad arguments.
two_builds() {
    local script=$1
    shift
    if [[ $# -lt 2 ]]; then
        echo "usage: scripts/$script OLD_PBEM NEW_PBEM [GAME...]" >&2
        exit 64
    fi
    OLD=$1
    NEW=$2
    shift 2
    for b in "$OLD" "$NEW"; do
        if [[ ! -x $b ]]; then
            echo "$script: '$b' is not an executable pbem binary" >&2
            exit 64
        fi
    done
    GAMES=("$@")
    if [[ ${#GAMES[@]} -eq 0 ]]; then
        GAMES=(hex y chameleon unlur ataxx hexxagon paradux cups limit go:-size=9)
    fi
}

# game_spec GAME[:OPTION,...]: sets GAME_NAME and GAME_OPTS (Limit at -size=8 when none are given).
game_spec() {
    GAME_NAME=${1%%:*}
    GAME_OPTS=()
    if [[ $1 == *:* ]]; then
        IFS=',' read -ra GAME_OPTS <<<"${1#*:}"
    elif [[ $GAME_NAME == limit ]]; then
        GAME_OPTS=(-size=8)
    fi
}
