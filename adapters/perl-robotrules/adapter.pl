#!/usr/bin/perl
# Adapter for WWW::RobotRules (protocol in adapters/PROTOCOL.md).
use strict;
use warnings;
use JSON::PP ();
use MIME::Base64 ();
use WWW::RobotRules;

binmode STDIN;
binmode STDOUT;
$| = 1;
# JSON::XS (Debian's libjson-xs-perl) when it is there: it decodes the queries several times
# faster than the pure-Perl JSON::PP, which comes with Perl and is used otherwise. Both give the
# same data and write the same text.
my $json = (eval { require JSON::XS; 1 } ? 'JSON::XS' : 'JSON::PP')->new->utf8->canonical;
my $robots_url = 'http://example.com/robots.txt';

sub check {
    my ($body, $queries) = @_;
    # A WWW::RobotRules object is made for one agent name, so the body is parsed once per
    # distinct agent. It gets the raw bytes, as LWP::RobotUA hands it the undecoded content;
    # agent and URL are given as UTF-8 bytes too, so that all three compare byte for byte.
    my %rules;
    my @results;
    for my $q (@$queries) {
        my ($agent, $url) = ($q->{agent}, $q->{url});
        utf8::encode($agent);
        utf8::encode($url);
        unless ($rules{$agent}) {
            $rules{$agent} = WWW::RobotRules->new($agent);
            $rules{$agent}->parse($robots_url, $body);
        }
        my $allowed = $rules{$agent}->allowed($url);
        die "allowed() answered $allowed (rules not fresh)\n" if $allowed < 0;
        push @results, $allowed ? 'allowed' : 'disallowed';
    }
    return \@results;
}

while (my $line = <STDIN>) {
    next unless $line =~ /\S/;
    # JSON::PP walks strings character by character: a body of a few megabytes would take seconds.
    # Base64 needs no JSON escapes, so the body is lifted out with a pattern and the rest decoded.
    my $b64;
    $b64 = $1 if $line =~ s/"robots_b64":"([A-Za-z0-9+\/=]*)"/"robots_b64":""/;
    my $msg = $json->decode($line);
    $msg->{robots_b64} = $b64 if defined $b64;
    my $answer;
    if ($msg->{type} eq 'hello') {
        if (($msg->{protocol} // '') ne '1') {
            my $error = "unsupported protocol " . ($msg->{protocol} // 'null');
            print $json->encode({error => $error}), "\n";
            exit 0;
        }
        $answer = {
            name => 'perl-robotrules',
            parser => 'WWW::RobotRules',
            version => "$WWW::RobotRules::VERSION",
            language => 'Perl',
            homepage => 'https://metacpan.org/pod/WWW::RobotRules',
            profile => 'norobots-1994',
        };
    } elsif ($msg->{type} eq 'check') {
        my $body = MIME::Base64::decode_base64($msg->{robots_b64});
        my $results = eval { check($body, $msg->{queries}) };
        if ($results) {
            $answer = {id => $msg->{id}, results => $results};
        } else {
            # the parser refusing the input: Perl dies with a message, not a typed exception
            (my $error = $@) =~ s/\s+\z//;
            $answer = {id => $msg->{id}, error => "die: $error"};
        }
    } elsif ($msg->{type} eq 'stop') {
        exit 0;
    } else {
        die "unknown request type $msg->{type}\n";
    }
    print $json->encode($answer), "\n";
}
exit 0;
