from huarong.cli import main

main(prog_name="huarong")
