# bash completion for todo-cli
# Install: source this file from ~/.bashrc, or copy it to
# /usr/share/bash-completion/completions/todo

_todo() {
  local cur prev words cword
  _init_completion || return

  local commands="add list ls edit rm remove clear export stats"
  local priorities="low normal high"

  if [[ $cword -eq 1 ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi

  case "$prev" in
    --priority | -p)
      COMPREPLY=($(compgen -W "$priorities" -- "$cur"))
      return
      ;;
    --sort)
      COMPREPLY=($(compgen -W "id priority due" -- "$cur"))
      return
      ;;
    --format | -f)
      COMPREPLY=($(compgen -W "csv md" -- "$cur"))
      return
      ;;
    --output | -o)
      _filedir
      return
      ;;
    --due | -d | --tag | -t)
      return
      ;;
  esac

  case "${words[1]}" in
    add) COMPREPLY=($(compgen -W "--priority --tag --due" -- "$cur")) ;;
    list | ls) COMPREPLY=($(compgen -W "--tag --priority --sort" -- "$cur")) ;;
    edit) COMPREPLY=($(compgen -W "--priority --tag --due" -- "$cur")) ;;
    clear) COMPREPLY=($(compgen -W "--yes" -- "$cur")) ;;
    export) COMPREPLY=($(compgen -W "--format --output --tag" -- "$cur")) ;;
  esac
}

complete -F _todo todo
