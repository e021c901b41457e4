"""Alert writes: the life of an alert, the e-mail settings, and delivering the mails due."""
