/* Sub-commands of `bench`, one file each (cmd_<name>.c), dispatched from main.c's table.
 * Each returns the process exit code (docs/exit-codes.md). */
#ifndef HOST_CLI_CMD_H
#define HOST_CLI_CMD_H

int cmd_run(int argc, char **argv);
int cmd_regions(int argc, char **argv);
int cmd_probes(int argc, char **argv);
int cmd_boards(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif /* HOST_CLI_CMD_H */
