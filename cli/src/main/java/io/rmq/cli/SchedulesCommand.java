package io.rmq.cli;

import picocli.CommandLine.Command;

/** {@code rmq schedules}: the recurring-schedule commands. */
@Command(name = "schedules", header = "Lists, pauses, resumes or removes the recurring schedules.",
        description = "A schedule sends its fixed message to a topic at each tick of a cron expression or interval, once"
                + " in the whole cluster; see docs/schedules.md.",
        subcommands = {SchedulesListCommand.class, ScheduleChangeCommand.Pause.class, ScheduleChangeCommand.Resume.class,
            ScheduleChangeCommand.Remove.class})
final class SchedulesCommand {
}
